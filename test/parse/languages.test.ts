import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNKER_VERSION, kindOf, languageOf } from '../../main/engine/parse/index.js';

test('kindOf and languageOf by extension and well-known names', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['a/b.md', 'markdown', undefined],
    ['x.ts', 'code', 'typescript'],
    ['x.tsx', 'code', 'typescript'],
    ['x.mjs', 'code', 'javascript'],
    ['x.py', 'code', 'python'],
    ['x.go', 'code', 'go'],
    ['x.rs', 'code', 'rust'],
    ['X.java', 'code', 'java'],
    ['x.c', 'code', 'c'],
    ['x.h', 'code', 'c'],
    ['x.cpp', 'code', 'cpp'],
    ['x.cs', 'code', 'csharp'],
    ['x.rb', 'code', 'ruby'],
    ['x.php', 'code', 'php'],
    ['x.sh', 'code', 'bash'],
    ['x.kt', 'code', 'kotlin'],
    ['Makefile', 'code', 'make'],
    ['Dockerfile', 'code', 'dockerfile'],
    ['x.html', 'html', undefined],
    ['x.PDF', 'pdf', undefined],
    ['x.docx', 'docx', undefined],
    ['x.json', 'data', 'json'],
    ['x.yml', 'data', 'yaml'],
    ['x.toml', 'data', 'toml'],
    ['x.csv', 'data', 'csv'],
    ['notes', 'text', undefined],
    ['x.txt', 'text', undefined],
    ['.env', 'text', undefined],
    ['x.unknownext', 'text', undefined],
  ];
  for (const [path, kind, lang] of cases) {
    assert.equal(kindOf(path), kind, path);
    assert.equal(languageOf(path), lang, path);
  }
  assert.equal(CHUNKER_VERSION, 3);
});
