import { createServer, type Server } from 'node:http';

/**
 * A stand-in for upstream's LLMProxy: accepts `/rollout/{rollout}/attempt/{attempt}[/v1]/<path>`, records the
 * pair and forwards the request to `<target>/<path>` (an OpenAI-compatible base URL ending in `/v1`).
 */
export async function startRoutingProxy(target: string): Promise<{
  url: string;
  routed: Array<{ rollout_id: string; attempt_id: string; path: string }>;
  close(): Promise<void>;
}> {
  const routed: Array<{ rollout_id: string; attempt_id: string; path: string }> = [];
  const server: Server = createServer((req, res) => {
    const match = /^\/rollout\/([^/]+)\/attempt\/([^/]+)(?:\/v1)?(\/.*)$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `not a rollout-scoped path: ${req.url}` } }));
      return;
    }
    routed.push({ rollout_id: match[1]!, attempt_id: match[2]!, path: match[3]! });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const upstream = await fetch(`${target}${match[3]}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? '',
      });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
