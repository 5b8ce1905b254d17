// Child process for the benchmark: serves one store on a free loopback port, prints `READY <url>`, and
// shuts down on SIGTERM/SIGINT or when the parent closes stdin (so it cannot outlive the benchmark); prints its
// CPU time on SIGUSR2.
// Usage: node bench/server-child.mjs memory | sqlite <file> | memory-capped <maxSpanBytes>
import { InMemoryLightningStore, SqliteLightningStore } from '@arclight/store';
import { createLightningStoreServer } from '../dist/index.js';

const [backend, path] = process.argv.slice(2);
const store =
  backend === 'sqlite'
    ? new SqliteLightningStore({ path })
    : new InMemoryLightningStore(backend === 'memory-capped' ? { maxSpanBytes: Number(path) } : {});
const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
const url = await server.listen();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  await store.close();
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
