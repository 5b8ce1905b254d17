import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliToEnd, tempDir } from './cli.js';

const HEALTH = '/v1/agl/health';

describe('arclight --help', () => {
  it('lists the store command', async () => {
    const result = await runCliToEnd(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage: arclight/);
    expect(result.stdout).toMatch(/store \[options\]/);
  });

  it('store --help documents every flag and its default', async () => {
    const result = await runCliToEnd(['store', '--help']);
    expect(result.code).toBe(0);
    for (const flag of [
      '--host',
      '--port',
      '--backend',
      '--db',
      '--token',
      '--cors-origin',
      '--body-limit',
      '--metrics',
      '--tracker',
      '--read-only',
      '--memory-cap',
      '--max-spans-per-request',
      '--max-depth',
      '--max-decompressed-size',
      '--max-items-per-response',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stdout).toContain('4747');
    expect(result.stdout).toContain('127.0.0.1');
    expect(result.stdout).toContain('ARCLIGHT_STORE_TOKEN');
  });
});

describe('bad flag values exit non-zero with a one-line reason', () => {
  const cases: Array<[string[], RegExp]> = [
    [['store', '--port', 'abc'], /--port.*'abc' is invalid/],
    [['store', '--port', '70000'], /--port.*'70000' is invalid/],
    [['store', '--backend', 'redis'], /--backend.*'redis' is invalid.*memory, sqlite/],
    [['store', '--body-limit', 'lots'], /--body-limit.*'lots' is invalid/],
    [['store', '--log-level', 'loud'], /--log-level.*'loud' is invalid/],
    [['store', '--max-depth', '0'], /--max-depth.*'0' is invalid.*positive integer/],
    [['store', '--memory-cap', 'lots'], /--memory-cap.*'lots' is invalid/],
    [['store', '--tracker', 'datadog'], /--tracker.*'datadog' is invalid/],
    [['store', '--bogus'], /unknown option '--bogus'/],
  ];
  it.each(cases)('%j', async (args, message) => {
    const result = await runCliToEnd(args);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('arclight store', () => {
  it('memory backend: prints the startup line, serves health, exits 0 on SIGTERM', async () => {
    const cli = runCli(['store', '--backend', 'memory', '--port', '0']);
    const line = await cli.startupLine;
    expect(line).toMatch(
      /^Arclight LightningStore listening on http:\/\/127\.0\.0\.1:\d+ \(backend: memory\) — dashboard: http:\/\/127\.0\.0\.1:\d+\/$/,
    );
    const url = await cli.url;
    const res = await fetch(`${url}${HEALTH}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });

    cli.child.kill('SIGTERM');
    const finished = await cli.finished;
    expect(finished.signal).toBeNull();
    expect(finished.code).toBe(0);
    expect(finished.stderr).toMatch(/stopped/);
  });

  it('sqlite backend (default): the startup line names the db; data survives a SIGINT restart', async () => {
    const dir = tempDir();
    const first = runCli(['store', '--port', '0'], { cwd: dir });
    expect(await first.startupLine).toContain(
      `backend: sqlite, db: ${join(dir, 'arclight.sqlite')}`,
    );
    const url = await first.url;
    const created = await fetch(`${url}/v1/agl/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { persisted: true } }),
    });
    expect(created.status).toBe(201);
    first.child.kill('SIGINT');
    expect((await first.finished).code).toBe(0);
    expect(existsSync(join(dir, 'arclight.sqlite'))).toBe(true);

    const second = runCli(['store', '--port', '0', '--db', join(dir, 'arclight.sqlite')]);
    const rollouts = await (await fetch(`${await second.url}/v1/agl/rollouts`)).json();
    expect(rollouts).toMatchObject({ total: 1, items: [{ input: { persisted: true } }] });
    second.child.kill('SIGTERM');
    expect((await second.finished).code).toBe(0);
  });

  it('a taken port exits non-zero with a one-line EADDRINUSE reason', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCliToEnd(['store', '--backend', 'memory', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`port ${port} is already in use`);
      expect(result.stderr).toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('--token (or ARCLIGHT_STORE_TOKEN) protects everything but health; --cors-origin sets CORS', async () => {
    const cli = runCli(
      ['store', '--backend', 'memory', '--port', '0', '--cors-origin', 'http://dash.example'],
      {
        env: { ARCLIGHT_STORE_TOKEN: 'env-secret' },
      },
    );
    expect(await cli.startupLine).toContain('token required');
    const url = await cli.url;
    expect((await fetch(`${url}${HEALTH}`)).status).toBe(200);
    expect((await fetch(`${url}/v1/agl/statistics`)).status).toBe(401);
    const ok = await fetch(`${url}/v1/agl/statistics`, {
      headers: { authorization: 'Bearer env-secret', origin: 'http://dash.example' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://dash.example');
    cli.child.kill('SIGTERM');
    expect((await cli.finished).code).toBe(0);
  });

  it('--log-level info writes request logs to stderr, keeping stdout to the startup line', async () => {
    const cli = runCli(['store', '--backend', 'memory', '--port', '0', '--log-level', 'info']);
    const url = await cli.url;
    expect((await fetch(`${url}/v1/agl/statistics`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    const finished = await cli.finished;
    expect(finished.code).toBe(0);
    expect(finished.stdout.trim().split('\n')).toHaveLength(1);
    expect(finished.stderr).toContain('/v1/agl/statistics');
  });

  it('an unopenable database exits non-zero with a one-line reason', async () => {
    const dir = tempDir();
    const result = await runCliToEnd([
      'store',
      '--port',
      '0',
      '--db',
      join(dir, 'missing', 'dir', 'x.sqlite'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot open the sqlite store/);
  });
});
