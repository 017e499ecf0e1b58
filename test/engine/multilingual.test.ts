// Language-aware search end to end (real LanceDB, the real built-in English model): CJK words
// inside longer runs and inflected Russian words are found by the sparse leg; the vector leg
// abstains, and says so, on a query its model cannot represent, instead of a fixed list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';

let engine: Engine;
let folder: string;
const cleanups: (() => Promise<void>)[] = [];

const DOCS: Record<string, string> = {
  'panda-zh.md': '大熊猫是中国的国宝，主要生活在四川的山区，以竹子为食。\n',
  'tower-ja.md': '東京タワーは一九五八年に完成した電波塔です。\n',
  'library-ko.md': '서울의 도서관에서 학생들이 시험 공부를 하고 있습니다.\n',
  'bath-ru.md': 'В бане он парился берёзовыми вениками, а потом прыгал в снег.\n',
  'cats-de.md': 'Die Katzen schlafen den ganzen Tag auf dem Sofa, und der Hund ist nicht da.\n',
  'panda-en.md': 'The giant panda lives in the mountains of Sichuan and eats bamboo.\n',
  'trains-en.md': 'Trains to the coast leave every half hour from the central station.\n',
};

before(async () => {
  const d = await tempDir('multilingual');
  cleanups.push(d.cleanup);
  folder = join(d.dir, 'docs');
  await mkdir(folder, { recursive: true });
  for (const [name, text] of Object.entries(DOCS)) await writeFile(join(folder, name), text);
  const t = await tempEngine();
  engine = t.engine;
  cleanups.push(t.cleanup);
  await engine.addFolder({ path: folder });
  await indexNow(engine, folder, 'create');
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const first = async (query: string, mode: 'sparse' | 'hybrid' = 'sparse') => {
  const res = await engine.search({ query, mode, top_k: 5, folders: [folder] });
  return { res, top: res.hits[0] ? basename(res.hits[0].path) : null };
};

describe('sparse leg across languages', () => {
  test('CJK words inside longer runs, inflected Russian and German', async () => {
    for (const [query, file] of [
      ['熊猫', 'panda-zh.md'],
      ['竹子', 'panda-zh.md'],
      ['東京', 'tower-ja.md'],
      ['도서관', 'library-ko.md'],
      ['веник', 'bath-ru.md'],
      ['Katze', 'cats-de.md'],
    ]) {
      assert.equal((await first(query)).top, file, query);
    }
    // Control: a word no document has finds nothing.
    assert.equal((await first('老虎')).top, null);
  });
});

describe('vector leg abstention', () => {
  test('a query the model cannot represent: the vector leg abstains and says why', async () => {
    const { res, top } = await first('熊猫', 'hybrid');
    assert.equal(top, 'panda-zh.md');
    assert.deepEqual(res.legs_answered, ['sparse']);
    assert.equal(res.legs_abstained?.[0]?.leg, 'vector');
    assert.match(res.legs_abstained?.[0]?.reason ?? '', /cannot represent/);
    assert.deepEqual(res.hits[0].legs_abstained, ['vector']);
    const vectorOnly = await engine.search({ query: 'вениками', mode: 'vector', top_k: 5, folders: [folder] });
    assert.equal(vectorOnly.hits.length, 0);
    assert.deepEqual(vectorOnly.legs_answered, []);
  });

  test('control: an English query is answered by the vector leg', async () => {
    const { res } = await first('giant panda eating bamboo', 'hybrid');
    assert.deepEqual(res.legs_answered, ['sparse', 'vector']);
    assert.equal(res.legs_abstained, undefined);
    assert.ok(res.hits.some((h) => h.legs.vector !== undefined));
  });
});
