import { spawn } from 'node:child_process';
import { chmodSync, closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv, type Finished, runCli, runCliToEnd, tempDir } from './cli.js';

/** A store file with data: started once, 200 rollouts enqueued over HTTP, stopped with SIGTERM. */
async function populatedDb(): Promise<string> {
  const dir = tempDir();
  const db = join(dir, 'store.sqlite');
  const cli = runCli(['store', '--db', db, '--port', '0'], { cwd: dir });
  const url = await cli.url;
  const rollouts = Array.from({ length: 200 }, (_, i) => ({ input: { i, text: 'x'.repeat(200) } }));
  const res = await fetch(`${url}/v1/agl/queues/rollouts/enqueue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rollouts }),
  });
  expect(res.status).toBe(201);
  cli.child.kill('SIGTERM');
  expect((await cli.finished).code).toBe(0);
  return db;
}

function expectRefused(result: Finished, message: RegExp): void {
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stdout).not.toContain('listening');
  expect(result.stderr).toMatch(message);
}

describe('arclight store refuses a broken SQLite file at startup', () => {
  it('a file truncated to 0 bytes', async () => {
    const db = join(tempDir(), 'store.sqlite');
    writeFileSync(db, '');
    expectRefused(
      await runCliToEnd(['store', '--db', db, '--port', '0']),
      /cannot open the sqlite store: database .*store\.sqlite is empty \(0 bytes\)/,
    );
    expect(statSync(db).size).toBe(0); // left as it was
  });

  it('a file whose pages are zeroed behind an intact header', { timeout: 60_000 }, async () => {
    const db = await populatedDb();
    const size = statSync(db).size;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(size - 4096), 0, size - 4096, 4096);
    closeSync(fd);
    expectRefused(
      await runCliToEnd(['store', '--db', db, '--port', '0']),
      /database .*store\.sqlite is corrupt (\(PRAGMA quick_check: |or not a SQLite database: database disk image is malformed)/,
    );
  });

  it('a file that is not a database', async () => {
    const db = join(tempDir(), 'store.sqlite');
    writeFileSync(db, 'not a database '.repeat(500));
    expectRefused(
      await runCliToEnd(['store', '--db', db, '--port', '0']),
      /is corrupt or not a SQLite database: file is not a database/,
    );
  });

  it('a read-only file (as an unprivileged user); --read-only then serves it and refuses writes', {
    timeout: 60_000,
  }, async () => {
    const db = await populatedDb();
    const dir = join(db, '..');
    chmodSync(db, 0o444);
    // Root writes through permission bits, so run the server as `nobody` when the tests run as root.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (process.getuid?.() === 0) chmodSync(dir, 0o777);
    const run = (args: string[]) =>
      new Promise<Finished & { url?: string; stop?: () => void }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          env: cliEnv(),
          cwd: dir,
          ...asUser,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /(http:\/\/\S+)/.exec(stdout);
          if (match)
            resolve({
              code: null,
              signal: null,
              stdout,
              stderr,
              url: match[1],
              stop: () => child.kill('SIGTERM'),
            });
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });
    expectRefused(
      await run(['store', '--db', db, '--port', '0']),
      /is not writable by this process.*--read-only/,
    );

    const served = await run(['store', '--db', db, '--port', '0', '--read-only']);
    expect(served.url, served.stderr).toBeDefined();
    try {
      expect(served.stdout).toContain('read-only');
      const list = await fetch(`${served.url}/v1/agl/rollouts?limit=1`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { total: number }).total).toBe(200);
      const write = await fetch(`${served.url}/v1/agl/rollouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input": 1}',
      });
      expect(write.status).toBe(405);
      expect(((await write.json()) as { detail: string }).detail).toContain('read-only');
    } finally {
      served.stop?.();
    }
  });

  it('--read-only on a file that does not exist', async () => {
    const db = join(tempDir(), 'missing.sqlite');
    expectRefused(
      await runCliToEnd(['store', '--db', db, '--port', '0', '--read-only']),
      /does not exist/,
    );
  });
});

describe('arclight store on SIGTERM', () => {
  it('stops within the drain timeout (10 s) although clients never read their large answers', {
    timeout: 60_000,
  }, async () => {
    const dir = tempDir();
    const cli = runCli(['store', '--db', join(dir, 'store.sqlite'), '--port', '0'], { cwd: dir });
    const url = await cli.url;
    // Answers of ~3 MB each, left unread: each holds its connection busy (this hung the shutdown for good).
    for (let batch = 0; batch < 10; batch++) {
      const rollouts = Array.from({ length: 10_000 }, (_, i) => ({ input: { batch, i } }));
      const res = await fetch(`${url}/v1/agl/queues/rollouts/enqueue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rollouts }),
      });
      expect(res.status).toBe(201);
    }
    const listing = await fetch(`${url}/v1/agl/rollouts`); // 100,000 rollouts, read in full
    expect((await listing.arrayBuffer()).byteLength).toBeGreaterThan(10_000_000);
    const started = performance.now();
    cli.child.kill('SIGTERM');
    const finished = await cli.finished;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toContain('arclight store: stopped');
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
