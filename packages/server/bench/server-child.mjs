// Child process for the benchmark: serves one store on a free loopback port, prints `READY <url>`, and
// shuts down on SIGTERM/SIGINT or when the parent closes stdin (so it cannot outlive the benchmark); prints its
// CPU time on SIGUSR2.
// Usage: node bench/server-child.mjs memory | sqlite <file> | memory-capped <maxSpanBytes> | bare
// `bare` is no store at all: node:http answering every request with a fixed body (see bareHttpServer), the
// ceiling any Node server reaches on this machine.
import { createServer } from 'node:http';
import { InMemoryLightningStore, SqliteLightningStore } from '@arclight/store';
import { createLightningStoreServer } from '../dist/index.js';

const [backend, path] = process.argv.slice(2);
const store =
  backend === 'bare'
    ? null
    : backend === 'sqlite'
      ? new SqliteLightningStore({ path })
      : new InMemoryLightningStore(
          backend === 'memory-capped' ? { maxSpanBytes: Number(path) } : {},
        );
const server = store
  ? createLightningStoreServer(store, { host: '127.0.0.1', port: 0 })
  : bareHttpServer();
const url = await server.listen();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  await store?.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
// SIGUSR2: print this process's CPU time so far (µs), for CPU-per-request figures that load elsewhere does not skew.
process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`CPU ${user + system}\n`);
});
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();

process.stdout.write(`READY ${url}\n`);

/**
 * Reads each request body and answers 200 with a 400-byte JSON body (about a dequeued rollout's size): routing,
 * validation and the store cost nothing. Same `listen()`/`close()` shape as the store server.
 */
function bareHttpServer() {
  const answer = Buffer.from(JSON.stringify({ rollout: { padding: 'x'.repeat(372) } }));
  const http = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
  });
  return {
    listen: () =>
      new Promise((done) =>
        http.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${http.address().port}`)),
      ),
    close: () => {
      http.closeAllConnections();
      return new Promise((done) => http.close(done));
    },
  };
}
