// Unit: the web-standard Response builders (main/engine/web/responses.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  errorResponse,
  isJsonContentType,
  json,
  jsonRpcError,
  readBounded,
  typedError,
} from '../../../../main/engine/web/responses.js';
import { CairnError } from '../../../../main/engine/errors.js';

test('every JSON answer is uncacheable, unsniffable and unframeable', async () => {
  const r = json(200, { ok: true }, { 'x-extra': '1' });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(r.headers.get('x-extra'), '1');
  assert.deepEqual(await r.json(), { ok: true });
});

test('errors: the status follows the code; unknown throws are a 500 internal', async () => {
  const notFound = errorResponse(new CairnError('not_found', 'gone'));
  assert.equal(notFound.status, 404);
  assert.deepEqual(await notFound.json(), { error: { code: 'not_found', message: 'gone' } });
  assert.equal(errorResponse(new CairnError('path_outside_folders', 'no')).status, 403);
  assert.equal(errorResponse(new Error('boom')).status, 500);
  assert.equal(errorResponse(new CairnError('not_found', 'x'), 410).status, 410);
  const typed = typedError('invalid_argument', 'bad', { remedy: 'fix it' }, { 'www-authenticate': 'Bearer' });
  assert.equal(typed.status, 400);
  assert.equal(typed.headers.get('www-authenticate'), 'Bearer');
  assert.deepEqual(await typed.json(), { error: { code: 'invalid_argument', message: 'bad', remedy: 'fix it' } });
});

test('JSON-RPC errors carry id null and data only when given', async () => {
  assert.deepEqual(await jsonRpcError(400, -32600, 'bad').json(), {
    jsonrpc: '2.0',
    error: { code: -32600, message: 'bad' },
    id: null,
  });
  assert.deepEqual(
    ((await jsonRpcError(400, -32022, 'era', {}, { supported: ['x'] }).json()) as { error: { data: unknown } }).error
      .data,
    { supported: ['x'] },
  );
});

function streamed(parts: string[], headers: Record<string, string> = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });
  return new Request('http://127.0.0.1/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

test('bodies are read up to the limit, whatever Content-Length claims', async () => {
  assert.equal(await readBounded(streamed(['abc', 'def']), 6), 'abcdef');
  assert.equal(await readBounded(streamed(['abc', 'defg']), 6), null, 'streamed past the limit');
  assert.equal(
    await readBounded(
      new Request('http://127.0.0.1/x', { method: 'POST', body: 'x', headers: { 'content-length': '999' } }),
      6,
    ),
    null,
    'declared past the limit',
  );
  assert.equal(await readBounded(new Request('http://127.0.0.1/x'), 6), '');
  assert.equal(await readBounded(streamed(['h\u00e9']), 3), 'h\u00e9', 'bytes, not characters: é is two');
  assert.equal(await readBounded(streamed(['h\u00e9']), 2), null);
});

test('only application/json is JSON (text/plain is how cross-site forms post)', () => {
  assert.equal(isJsonContentType('application/json'), true);
  assert.equal(isJsonContentType('Application/JSON; charset=utf-8'), true);
  for (const v of [
    null,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/jsonp',
    'application/json-patch+json',
  ]) {
    assert.equal(isJsonContentType(v), false, String(v));
  }
});
