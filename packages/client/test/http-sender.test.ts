import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LightningStoreClient } from '../src/index.js';
import { FakeServer } from './support/fake-server.js';
import { rolloutJson } from './support/wire-fixtures.js';

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const answerRollout = async (): Promise<FakeServer> =>
  FakeServer.start((request) =>
    request.path === '/v1/agl/rollouts/ro-1'
      ? { status: 200, json: rolloutJson('ro-1') }
      : undefined,
  );

describe('the default sender (node:http, keep-alive)', () => {
  it('keeps its connection alive: one request after another goes over one socket', async () => {
    server = await answerRollout();
    const client = new LightningStoreClient(server.url, { retryDelays: [] });
    for (let i = 0; i < 6; i++)
      expect((await client.getRolloutById('ro-1'))?.rollout_id).toBe('ro-1');
    expect(server.to('/v1/agl/rollouts/ro-1')).toHaveLength(6);
    expect(server.connections).toBe(1);
    await client.close();
  });

  it('sends credentials in the server URL as basic auth, and a token over them', async () => {
    server = await answerRollout();
    const withCredentials = server.url.replace('http://', 'http://agent:p%40ss%3Aword@');
    await new LightningStoreClient(withCredentials, { retryDelays: [] }).getRolloutById('ro-1');
    await new LightningStoreClient(withCredentials, {
      retryDelays: [],
      token: 't0k',
    }).getRolloutById('ro-1');
    const [basic, bearer] = server.to('/v1/agl/rollouts/ro-1').map((r) => r.headers.authorization);
    expect(basic).toBe(`Basic ${Buffer.from('agent:p@ss:word').toString('base64')}`);
    expect(bearer).toBe('Bearer t0k');
  });

  it('leaves no idle connection that keeps the process alive', async () => {
    server = await answerRollout();
    const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `
      const { LightningStoreClient } = await import(${JSON.stringify(entry)});
      const client = new LightningStoreClient(${JSON.stringify(server.url)}, { retryDelays: [] });
      const rollout = await client.getRolloutById('ro-1');
      console.log('got', rollout.rollout_id);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    // Without unref'd idle sockets the child would wait for the server's 5 s keep-alive timeout (or forever).
    const exited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 4_000);
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!exited) child.kill('SIGKILL');
    expect(out.trim()).toBe('got ro-1');
    expect(exited).toBe(true);
  });
});
