// Copied into the client cache and run there (so the published SDKs resolve from its
// node_modules): connects with SDK v1 or v2 over HTTP or stdio, lists the tools and calls search.
// Prints one JSON line: {ok, tools, hit} or {ok: false, error}.
const [sdk, transport, target, ...rest] = process.argv.slice(2);
const opts = JSON.parse(rest[0] ?? '{}');
try {
  let Client, Http, Stdio;
  if (sdk === 'v1') {
    ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
    ({ StreamableHTTPClientTransport: Http } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js'));
    ({ StdioClientTransport: Stdio } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  } else {
    ({ Client, StreamableHTTPClientTransport: Http } = await import('@modelcontextprotocol/client'));
    ({ StdioClientTransport: Stdio } = await import('@modelcontextprotocol/client/stdio'));
  }
  const client = new Client({ name: `cairn-tier-sdk-${sdk}`, version: '1.0.0' });
  const t =
    transport === 'http'
      ? new Http(new URL(target), opts.key ? { requestInit: { headers: { authorization: `Bearer ${opts.key}` } } } : {})
      : new Stdio({ command: target, args: opts.args, env: { ...process.env, ...opts.env }, stderr: 'ignore' });
  await client.connect(t);
  const tools = (await client.listTools()).tools.map((x) => x.name);
  const res = await client.callTool({ name: 'search', arguments: { query: opts.query ?? 'exponential backoff' } });
  const text = (res.content ?? []).map((c) => c.text ?? '').join('\n');
  await client.close();
  console.log(JSON.stringify({ ok: !res.isError, tools, text: text.slice(0, 2000) }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, error: String(err?.message ?? err).slice(0, 500) }));
}
process.exit(0);
