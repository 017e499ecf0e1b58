/**
 * A 401 that MCP clients understand (issue 10 §5), with the real SDK v1 client over real HTTP:
 * no `error=` code when no key came (RFC 6750 §3.1), `invalid_token` only for a wrong key, a
 * description that names the fix, and plain JSON 404s on the OAuth paths clients probe, so that a
 * missing key surfaces as an auth error naming the key, not as a failed OAuth login.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { startFixture, INIT, MCP_HEADERS, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;
let key: string;

before(async () => {
  fx = await startFixture({ 'mcp.require_api_key': true });
  key = randomBytes(24).toString('base64url');
  await fx.apiKeys.set(key);
});

after(async () => {
  await fx.close();
});

const post = (headers: Record<string, string>) =>
  fetch(fx.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) });

test('no key: 401, WWW-Authenticate without an error code but with a description naming the fix; the body says the same', async () => {
  const r = await post({});
  assert.equal(r.status, 401);
  const challenge = r.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^Bearer realm="cairn"/);
  assert.doesNotMatch(challenge, /\berror=/, 'RFC 6750 §3.1: no error code without credentials');
  assert.match(
    challenge,
    /error_description="No API key was sent\. [^"]*Authorization: Bearer <key>[^"]*mcp-api-key[^"]*"/,
  );
  assert.match(challenge, /^[\x20-\x7e]+$/, 'ASCII only (RFC 6750 error_description characters)');
  const body = (await r.json()) as { error: { code: number; message: string } };
  assert.equal(body.error.code, -32001);
  assert.match(body.error.message, /no API key was sent.*Authorization: Bearer <key>/);
});

test('a wrong key, an empty Bearer and another scheme: 401 with error="invalid_token"; control: the right key is answered 200', async () => {
  for (const authorization of [
    `Bearer ${key}x`,
    'Bearer wrong-key-wrong-key-wrong-key',
    'Bearer ',
    `Basic ${Buffer.from(`u:${key}`).toString('base64')}`,
  ]) {
    const r = await post({ authorization });
    assert.equal(r.status, 401, authorization);
    const challenge = r.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /error="invalid_token"/, authorization);
    assert.match(challenge, /error_description="The API key is wrong\./);
    await r.body?.cancel();
  }
  const ok = await post({ authorization: `Bearer ${key}` });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
});

const PROBES = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/openid-configuration',
  '/.well-known/openid-configuration/mcp',
  '/mcp/.well-known/openid-configuration',
  '/mcp/.well-known/oauth-authorization-server',
  '/register',
  '/authorize',
  '/token',
];

test('the OAuth discovery paths and default endpoints answer a plain JSON 404 with no metadata, whatever the method', async () => {
  for (const path of PROBES) {
    for (const method of ['GET', 'POST']) {
      const r = await fetch(fx.server.url + path, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? '{"redirect_uris":["http://localhost/cb"]}' : undefined,
      });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}`);
      const body = (await r.json()) as Record<string, unknown>;
      for (const field of [
        'issuer',
        'authorization_servers',
        'registration_endpoint',
        'authorization_endpoint',
        'token_endpoint',
        'client_id',
        'resource',
      ]) {
        assert.equal(field in body, false, `${path} advertises no ${field}`);
      }
      assert.match(String(body.error_description), /Cairn does not use OAuth/);
    }
  }
  // Control: other paths still go to the workbench (not this JSON).
  const other = await fetch(`${fx.server.url}/.well-known/security.txt`);
  assert.doesNotMatch(await other.text(), /oauth_not_supported/);
});

/** Every request the client makes, as the SDK sends it. */
function recordingFetch(seen: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname}`);
    return fetch(input, init);
  };
}

test('SDK v1 client without a key and without OAuth: connect fails with the 401 naming the key, and no OAuth request is made', async () => {
  const seen: string[] = [];
  const client = new Client({ name: 'no-key', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(fx.mcpUrl), { fetch: recordingFetch(seen) });
  await assert.rejects(client.connect(transport), (err: Error & { code?: number }) => {
    assert.equal(err.code, 401, String(err));
    assert.match(err.message, /no API key was sent.*Authorization: Bearer <key>/);
    return true;
  });
  assert.deepEqual(seen, ['POST /mcp'], 'one POST, no discovery, no registration');
  // Control: the same client with the key connects and lists tools.
  const ok = new Client({ name: 'with-key', version: '1' });
  await ok.connect(
    new StreamableHTTPClientTransport(new URL(fx.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  assert.ok((await ok.listTools()).tools.length > 0);
  await ok.close();
});

test('SDK v1 client with an OAuth provider (as Claude Code and Gemini CLI run it): finds no metadata, never opens a login, and its error names the key', async () => {
  const seen: string[] = [];
  const redirects: string[] = [];
  // A stand-in for the client's own OAuth provider (browser login); nothing of Cairn's.
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return 'http://localhost:9/callback';
    },
    get clientMetadata() {
      return { redirect_uris: ['http://localhost:9/callback'], client_name: 'probe' };
    },
    clientInformation: () => undefined,
    saveClientInformation: () => undefined,
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url) => void redirects.push(String(url)),
    saveCodeVerifier: () => undefined,
    codeVerifier: () => 'v',
  };
  const client = new Client({ name: 'oauth-client', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(fx.mcpUrl), {
    authProvider: provider,
    fetch: recordingFetch(seen),
  });
  const err = await client.connect(transport).then(
    () => null,
    (e: Error) => e,
  );
  assert.ok(err, 'connect fails');
  assert.match(
    err.message,
    /Cairn needs its MCP API key.*Authorization: Bearer <key>/,
    `the surfaced error names the key: ${err.message}`,
  );
  assert.deepEqual(redirects, [], 'no browser login was started');
  const discovery = seen.filter((s) => /well-known/.test(s));
  assert.ok(discovery.length > 0, 'control: the provider did probe discovery (so the answers above were exercised)');
  // The SDK's legacy fallback still POSTs /register when no metadata exists; it gets the 404 whose
  // description is the error above. Nothing was registered: there is no registration endpoint.
  assert.ok(
    seen.every((s) => !/\/token$|\/authorize$/.test(s)),
    `no token or authorize request: ${seen.join(', ')}`,
  );
});
