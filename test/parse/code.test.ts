import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile } from '../../main/engine/parse/index.js';
import { countTokens, opts } from './counter.js';

const parse = (rel: string, text: string) => parseFile({ path: `/p/${rel}`, rel }, Buffer.from(text), opts);
const defs = (r: Awaited<ReturnType<typeof parse>>) =>
  r.symbols.map((s) => `${s.name}:${s.kind}:${s.startLine}-${s.endLine}`);

test('a function longer than the window becomes line windows that all keep its symbol', async () => {
  const body = Array.from({ length: 60 }, (_, i) => `  const value${i} = compute(input, ${i});`).join('\n');
  const text = `import { compute } from './compute.js';\n\nexport function hugeFunction(input: number): void {\n${body}\n}\n`;
  const r = await parse('big.ts', text);
  const pieces = r.chunks.filter((c) => c.symbol === 'hugeFunction');
  assert.ok(pieces.length > 2);
  assert.equal(pieces[0].startLine, 3);
  assert.equal(pieces[pieces.length - 1].endLine, 64);
  for (const c of r.chunks) assert.ok(countTokens(c.text) <= opts.maxTokens);
});

test('a class bigger than the window is split at its methods, with Class.method symbols', async () => {
  const method = (n: number) =>
    `  method${n}(a: number, b: number): number {\n    const sum = a + b + ${n};\n    return this.scale(sum) * ${n};\n  }\n`;
  const text = `export class Calculator {\n  private factor = 2;\n\n${Array.from({ length: 8 }, (_, i) => method(i)).join('\n')}}\n`;
  const r = await parse('calc.ts', text);
  assert.ok(r.chunks.length >= 8);
  const m3 = r.chunks.find((c) => c.symbol === 'Calculator.method3');
  assert.ok(m3);
  assert.equal(m3.symbolKind, 'method');
  assert.match(m3.text, /^ {2}method3\(/);
  const field = r.chunks.find((c) => c.text.includes('private factor'));
  assert.equal(field?.symbol, 'Calculator', 'code between methods keeps the class as its symbol');
});

test('JavaScript: arrow functions, classes, require and dynamic import', async () => {
  const r = await parse(
    'a.js',
    "const fs = require('fs');\nconst run = async () => {\n  await import('./lazy.js');\n};\nclass A {\n  go() { return 1; }\n}\n",
  );
  assert.deepEqual(defs(r), ['run:function:2-4', 'A:class:5-7', 'A.go:method:6-6']);
  assert.deepEqual(
    r.refs.filter((x) => x.kind === 'import').map((x) => x.target),
    ['fs', './lazy.js'],
  );
});

test('JavaScript: functions assigned to a prototype, an object or module.exports are definitions', async () => {
  const r = await parse(
    'writer.js',
    [
      'function Writer() {}',
      'Writer.prototype.uint32 = function write_uint32(value) {',
      '  return value;',
      '};',
      'Writer.alloc = () => new Writer();',
      'Writer.size = 4;',
      'module.exports = function createWriter() {};',
      'module.exports.Writer = Writer;',
      '',
    ].join('\n'),
  );
  // Not definitions: a number assigned (line 6) or a name re-exported (line 8).
  assert.deepEqual(defs(r), [
    'Writer:function:1-1',
    'Writer.prototype.uint32:method:2-4',
    'Writer.alloc:method:5-5',
    'createWriter:function:7-7',
  ]);
  assert.ok(r.chunks.some((c) => c.symbol === 'Writer.prototype.uint32' && c.startLine === 2 && c.endLine === 4));
});

test('TSX parses with the TSX grammar', async () => {
  const r = await parse(
    'c.tsx',
    'import React from \'react\';\nexport function Card(props: { title: string }) {\n  return <div className="card">{props.title}</div>;\n}\n',
  );
  assert.deepEqual(defs(r), ['Card:function:2-4']);
});

test('C#, Ruby, PHP and Bash: definitions and imports', async () => {
  const cs = await parse(
    'a.cs',
    'using System.Text;\nnamespace Acme {\n  public class Greeter {\n    public string Hello(string n) { return n; }\n  }\n}\n',
  );
  assert.deepEqual(defs(cs), ['Acme:namespace:2-6', 'Acme.Greeter:class:3-5', 'Acme.Greeter.Hello:method:4-4']);
  assert.deepEqual(
    cs.refs.filter((x) => x.kind === 'import').map((x) => x.target),
    ['System.Text'],
  );
  const rb = await parse('a.rb', "require 'json'\nclass Parser\n  def parse(s)\n    JSON.parse(s)\n  end\nend\n");
  assert.deepEqual(defs(rb), ['Parser:class:2-6', 'Parser.parse:method:3-5']);
  assert.deepEqual(
    rb.refs.filter((x) => x.kind === 'import').map((x) => x.target),
    ['json'],
  );
  const php = await parse(
    'a.php',
    "<?php\nrequire_once 'db.php';\nclass Repo {\n  public function find($id) { return $id; }\n}\nfunction helper() {}\n",
  );
  assert.deepEqual(defs(php), ['Repo:class:3-5', 'Repo.find:method:4-4', 'helper:function:6-6']);
  assert.deepEqual(
    php.refs.filter((x) => x.kind === 'import').map((x) => x.target),
    ['db.php'],
  );
  const sh = await parse('a.sh', '#!/bin/bash\nsource ./env.sh\ndeploy() {\n  echo hi\n}\ndeploy\n');
  assert.deepEqual(defs(sh), ['deploy:function:3-5']);
  assert.deepEqual(
    sh.refs.filter((x) => x.kind === 'import').map((x) => x.target),
    ['./env.sh'],
  );
});

test('Rust impl methods, Go methods and C++ namespaces are qualified', async () => {
  const rs = await parse('a.rs', 'struct P;\nimpl P {\n    fn norm(&self) -> f64 { 0.0 }\n}\n');
  assert.ok(defs(rs).includes('P.norm:method:3-3'));
  const go = await parse('a.go', 'package x\n\nfunc (q Queue) Push(v int) {\n}\n');
  assert.deepEqual(defs(go), ['Queue.Push:method:3-4']);
  const cpp = await parse('a.cpp', 'namespace geo {\nint area(int w, int h) {\n  return w * h;\n}\n}\n');
  assert.deepEqual(defs(cpp), ['geo:namespace:1-5', 'geo.area:function:2-4']);
});

test('syntax errors do not lose the file; code without a grammar gets line windows', async () => {
  const broken = await parse('b.py', 'def ok():\n    return 1\n\ndef broken(:\n    pass\n');
  assert.ok(broken.chunks.length >= 1);
  assert.ok(broken.chunks.some((c) => c.text.includes('def ok')));
  assert.ok(broken.chunks.some((c) => c.text.includes('broken')));
  const kt = await parse('a.kt', 'fun main() {\n  println("hi")\n}\n');
  assert.deepEqual(
    kt.chunks.map((c) => [c.kind, c.language, c.startLine, c.endLine]),
    [['code', 'kotlin', 1, 3]],
  );
});

test('references are bounded per file', async () => {
  const calls = Array.from({ length: 500 }, (_, i) => `fn_${i}();`).join('\n');
  const r = await parse('many.js', calls);
  const refs = r.refs.filter((x) => x.kind === 'reference');
  assert.equal(refs.length, 300);
  assert.equal(new Set(refs.map((x) => x.target)).size, 300);
});
