import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal HTTP load balancer for tests: each incoming request goes to the next of `targets` in turn
 * (the way any round-robin balancer would spread a runner's calls over several store servers).
 */
export async function startRoundRobin(
  targets: string[],
): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]!);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`round-robin: upstream ${target.host} failed: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
