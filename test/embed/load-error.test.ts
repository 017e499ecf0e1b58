// A model that cannot load is described in words: no JavaScript internals, no unfilled placeholders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanLoadError } from '../../main/engine/embed/load-error.js';
import { hubUnavailable } from '../../main/engine/embed/hub.js';

test('a failed hub download reads as a download failure, with the real folder in the remedy', () => {
  const e = humanLoadError(
    'someone/model',
    hubUnavailable('someone/model', new TypeError("Cannot read properties of undefined (reading 'tokenizer_class')")),
    '/data/Cairn',
  );
  assert.match(e.message, /could not be downloaded/);
  assert.doesNotMatch(e.message + (e.remedy ?? ''), /reading '|<dataDir>|<id>/);
  assert.match(e.remedy ?? '', /\/data\/Cairn\/models\/someone\/model/);
});

test('a broken model folder reads as incomplete files; other typed errors keep their words, placeholders filled', () => {
  const broken = humanLoadError(
    'local/x',
    new TypeError("Cannot read properties of undefined (reading 'tokenizer_class')"),
    '/d',
  );
  assert.match(broken.message, /incomplete or are not a transformers\.js model/);
  assert.doesNotMatch(broken.message, /Cannot read/);
  const hub = humanLoadError('a/b', hubUnavailable('a/b', new Error('fetch failed')), '/d');
  assert.match(hub.message, /fetch failed/, 'a message already in words is kept');
  assert.doesNotMatch(hub.remedy ?? '', /<dataDir>/);
  assert.match(hub.remedy ?? '', /\/d\/models\/a\/b/);
});
