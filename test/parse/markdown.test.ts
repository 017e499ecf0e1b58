import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile } from '../../main/engine/parse/index.js';
import { countTokens, opts } from './counter.js';

const md = (text: string) => parseFile({ path: '/d/x.md', rel: 'x.md' }, Buffer.from(text), opts);

test('headings inside fenced code are not headings; links inside code are not links', async () => {
  const r = await md('# Real\n\n```sh\n# not a heading\ncurl [x](nope.md)\n```\n\n## Child\ntext [ok](ok.md)\n');
  assert.deepEqual(
    r.symbols.map((s) => s.name),
    ['Real', 'Child'],
  );
  assert.deepEqual(
    r.chunks.map((c) => c.heading),
    ['Real', 'Real > Child'],
  );
  assert.deepEqual(
    r.refs.map((r) => [r.target, r.line]),
    [['ok.md', 9]],
  );
});

test('link forms: inline with title, reference definitions, autolinks, wiki links; same-page anchors dropped', async () => {
  const r = await md(
    'See [a](a.md "Title") and ![img](pics/p.png), <https://example.com/x>, [[Other Page]], [self](#top).\n\n[ref]: ../ref.md\n',
  );
  assert.deepEqual(r.refs.map((x) => x.target).sort(), [
    '../ref.md',
    'Other Page',
    'a.md',
    'https://example.com/x',
    'pics/p.png',
  ]);
  assert.ok(r.refs.every((x) => x.kind === 'link'));
});

test('a long section is cut at paragraphs and every piece keeps the heading path', async () => {
  const body = Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i} talks about the installation of the tool on a server.`,
  ).join('\n\n');
  const r = await md(`# Guide\n\n## Install\n\n${body}\n\n## Next\nend\n`);
  const install = r.chunks.filter((c) => c.heading === 'Guide > Install');
  assert.ok(install.length > 3);
  for (const c of install) assert.ok(countTokens(c.text) <= opts.maxTokens);
  assert.equal(install[0].startLine, 1, 'the body-less parent heading joins its first child section');
  assert.ok(install.every((c, i) => i === 0 || c.startLine > install[i - 1].startLine));
  assert.equal(r.chunks[r.chunks.length - 1].heading, 'Guide > Next');
});

test('front matter is skipped and text before the first heading has no heading', async () => {
  const r = await md('---\ntitle: x\n---\nIntro line.\n\n# H\nbody\n');
  assert.deepEqual(
    r.chunks.map((c) => [c.startLine, c.endLine, c.heading ?? null]),
    [
      [4, 4, null],
      [6, 7, 'H'],
    ],
  );
});

test('setext-free ATX variants: closing hashes and emphasis are stripped from the path', async () => {
  const r = await md('# **Bold** title ##\n\ntext\n');
  assert.equal(r.chunks[0].heading, 'Bold title');
});

test('setext headings (=== and ---) open sections; a rule after a paragraph of several lines does not', async () => {
  const r = await md('Title\n=====\n\nIntro.\n\nPart\n----\nbody\n\nline one\nline two\n---\nafter\n');
  assert.deepEqual(
    r.symbols.map((s) => [s.name, s.startLine]),
    [
      ['Title', 1],
      ['Part', 6],
    ],
  );
  assert.deepEqual(
    r.chunks.map((c) => [c.heading, c.startLine, c.endLine]),
    [
      ['Title', 1, 4],
      ['Title > Part', 6, 13],
    ],
  );
});
