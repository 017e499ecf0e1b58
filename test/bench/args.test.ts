import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listOption, parseArgs, settingsPatch, sweepVariants } from '../../bench/lib/args.js';

test('names, flags and valued options are told apart', () => {
  const a = parseArgs(['quality', '--quick', '--sets', 'scifact,cranfield', '--modes=sparse,hybrid', 'grep']);
  assert.deepEqual(a.names, ['quality', 'grep']);
  assert.equal(a.quick, true);
  assert.deepEqual(listOption(a.options, 'sets', []), ['scifact', 'cranfield']);
  assert.deepEqual(listOption(a.options, 'modes', []), ['sparse', 'hybrid']);
  assert.deepEqual(listOption(a.options, 'absent', ['x']), ['x']);
  assert.throws(() => parseArgs(['--sets']), /needs a value/);
});

test('every option the usage shows without a value parses as a flag', () => {
  for (const flag of ['--quick', '--no-report', '--keep-tmp', '--reuse-index']) {
    const a = parseArgs(['peers', flag, '--as', 'probe']);
    assert.equal(a.options.get(flag.slice(2)), 'true', flag);
    assert.equal(a.options.get('as'), 'probe', flag);
  }
});

test('a sweep expands to the cartesian product of its values, typed', () => {
  assert.deepEqual(sweepVariants(undefined), [{}]);
  assert.deepEqual(sweepVariants('search.vector_weight=0,0.1;search.fusion=convex,weighted_rrf'), [
    { 'search.vector_weight': 0, 'search.fusion': 'convex' },
    { 'search.vector_weight': 0, 'search.fusion': 'weighted_rrf' },
    { 'search.vector_weight': 0.1, 'search.fusion': 'convex' },
    { 'search.vector_weight': 0.1, 'search.fusion': 'weighted_rrf' },
  ]);
  assert.deepEqual(settingsPatch('search.vector_weight=null,search.rrf_k=20'), {
    'search.vector_weight': null,
    'search.rrf_k': 20,
  });
  assert.throws(() => sweepVariants('novalue'), /key=v1,v2/);
});

test('sweep variants print short', async () => {
  const { shortVariant } = await import('../../bench/quality/summary.js');
  assert.equal(shortVariant(''), 'defaults');
  assert.equal(shortVariant('search.fusion=convex,search.vector_weight=0.1'), 'fusion=convex vector_weight=0.1');
});
