// Hub models when the hub cannot be reached. The hub is unreachable on these machines, and a
// user may be offline: loading a model that is not on disk must fail fast with a typed error.
// The second and third tests use a test double of the hub (a local server that never answers, or
// answers 404), since the real hub's behaviour cannot be chosen here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { CairnError } from '../../main/engine/errors.js';
import { tempDataDir } from './helpers.js';

function isUnavailable(model: string) {
  return (err: unknown) => {
    assert.ok(err instanceof CairnError, `a CairnError, got ${String(err)}`);
    assert.equal(err.code, 'dependency_unavailable');
    assert.ok(err.message.includes(model), 'the message names the model');
    assert.match(err.message, /could not be downloaded/);
    assert.ok(err.remedy && /cairn\/use-lite/.test(err.remedy), 'the remedy points at the built-in model');
    return true;
  };
}

test('an unknown hub id that is not cached fails with dependency_unavailable (real hub address)', async (t) => {
  const dataDir = tempDataDir(t);
  const model = 'cairn-tests/no-such-model-xyz';
  await assert.rejects(createEmbedder({ model, dataDir, hubTimeoutMs: 5000 }), isUnavailable(model));
});

test('a hub that accepts connections but never answers is given up on after the timeout', async (t) => {
  const dataDir = tempDataDir(t);
  const hanging = createServer(() => {
    /* never respond */
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    hanging.closeAllConnections();
    hanging.close();
  });
  const port = (hanging.address() as AddressInfo).port;
  const model = 'Xenova/all-MiniLM-L6-v2';
  await assert.rejects(
    createEmbedder({ model, dataDir, hubTimeoutMs: 300, remoteHost: `http://127.0.0.1:${port}/` }),
    isUnavailable(model),
  );
});

test('a hub that does not know the model gives dependency_unavailable, not a crash', async (t) => {
  const dataDir = tempDataDir(t);
  let requests = 0;
  const notFound = createServer((_req, res) => {
    requests++;
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
  t.after(() => notFound.close());
  const port = (notFound.address() as AddressInfo).port;
  const model = 'someone/unknown-model';
  await assert.rejects(
    createEmbedder({ model, dataDir, hubTimeoutMs: 2000, remoteHost: `http://127.0.0.1:${port}/` }),
    isUnavailable(model),
  );
  assert.ok(requests > 0, 'the double was asked');
});
