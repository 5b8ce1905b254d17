import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 for a server that binds it later (e.g. upstream's `agl store`, which takes seconds
 * to start). It is drawn below Linux's ephemeral range (32768+), so that servers binding port 0 meanwhile — other
 * tests running in parallel — cannot be handed the same port and answer in its place.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (await canBind(port)) return port;
  }
  throw new Error('freePort: no free port found in 20000–31999');
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
