import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv } from './cli.js';

// The probe's classes of hostile input against a real `arclight store` process (SQLite, the default backend):
// every one is a 4xx with a reason, the process's peak RSS stays bounded, and the server is healthy afterwards
// with the data stored before intact.

// ---- a minimal protobuf writer (OTLP trace request field numbers) ----
const varint = (value: number): Buffer => {
  const bytes: number[] = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
};
const len = (field: number, payload: Buffer): Buffer =>
  Buffer.concat([varint(field * 8 + 2), varint(payload.length), payload]);
const text = (field: number, value: string) => len(field, Buffer.from(value));
const kv = (key: string, anyValue: Buffer) => Buffer.concat([text(1, key), len(2, anyValue)]);
const protoSpan = (ids: { trace?: boolean; span?: boolean }, attributes: Buffer[] = []) =>
  Buffer.concat([
    ids.trace === false ? Buffer.alloc(0) : len(1, Buffer.alloc(16, 0xab)),
    ids.span === false ? Buffer.alloc(0) : len(2, Buffer.alloc(8, 0xcd)),
    text(5, 'hostile'),
    ...attributes.map((a) => len(9, a)),
  ]);
const protoRequest = (resourceAttributes: Buffer[], spans: Buffer[]) =>
  len(
    1,
    Buffer.concat([
      len(1, Buffer.concat(resourceAttributes.map((a) => len(1, a)))),
      len(2, Buffer.concat(spans.map((s) => len(2, s)))),
    ]),
  );
/** An AnyValue nesting `depth` arrays. */
function deepProtoValue(depth: number): Buffer {
  let value = text(1, 'leaf');
  for (let i = 0; i < depth; i++) value = len(5, len(1, value));
  return value;
}
/** `count` copies of one span entry, filled (not concatenated): the compression-bomb body. */
function repeatedSpans(count: number, span: Buffer): Buffer {
  const entry = len(2, span);
  return len(1, len(2, Buffer.alloc(count * entry.length, entry)));
}

const deepJson = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** Peak and current resident memory of a process, in MiB, from /proc. */
function memoryOf(pid: number): { peakMiB: number; rssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { peakMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
}

describe('arclight store under hostile input', () => {
  // Spawned here rather than with runCli, whose afterEach would kill it after the first test.
  let child: ChildProcess;
  let exited: Promise<void>;
  let dir: string;
  let url: string;
  let rolloutId: string;
  let attemptId: string;
  let baseline: { peakMiB: number; rssMiB: number };

  const post = (path: string, body: string | Buffer, headers: Record<string, string>) =>
    fetch(`${url}${path}`, { method: 'POST', body, headers });
  const json = { 'content-type': 'application/json' };
  const proto = { 'content-type': 'application/x-protobuf' };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arclight-hostile-'));
    child = spawn(
      process.execPath,
      [BIN, 'store', '--db', join(dir, 'store.sqlite'), '--port', '0'],
      {
        env: cliEnv(),
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        if (code !== 0)
          process.stderr.write(`arclight store exited (code ${code}, ${signal}):\n${stderr}\n`);
        resolve();
      }),
    );
    url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /(http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then(() => reject(new Error(`arclight store did not start: ${stderr}`)));
    });
    const started = await post(
      '/v1/agl/rollouts',
      JSON.stringify({ input: { task: 'keep me' } }),
      json,
    );
    expect(started.status).toBe(201);
    const rollout = (await started.json()) as {
      rollout_id: string;
      attempt: { attempt_id: string };
    };
    rolloutId = rollout.rollout_id;
    attemptId = rollout.attempt.attempt_id;
    const attribution = [
      kv('agentlightning.rollout_id', text(1, rolloutId)),
      kv('agentlightning.attempt_id', text(1, attemptId)),
    ];
    expect(
      (await post('/v1/traces', protoRequest(attribution, [protoSpan({})]), proto)).status,
    ).toBe(200);
    baseline = memoryOf(child.pid!);
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('compression bombs: 61 KB → 62 MB of empty spans, and 1M valid spans, are refused', {
    timeout: 120_000,
  }, async () => {
    const empty = gzipSync(repeatedSpans(31_000_000, Buffer.alloc(0)), { level: 9 });
    expect(empty.length).toBeLessThan(100_000);
    const res = await post('/v1/traces', empty, { ...proto, 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    const valid = gzipSync(repeatedSpans(1_000_000, protoSpan({})), { level: 9 });
    const res2 = await post('/v1/traces', valid, { ...proto, 'content-encoding': 'gzip' });
    expect(res2.status).toBe(413);
    expect(Buffer.from(await res2.arrayBuffer()).toString('latin1')).toContain(
      'limits.maxSpansPerRequest',
    );
    // Past the body limit once inflated (64 MiB): stops inflating at the cap.
    const zeros = gzipSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 });
    const res3 = await post('/v1/traces', zeros, { ...proto, 'content-encoding': 'gzip' });
    expect(res3.status).toBe(413);
  });

  it('deep nesting in every free-form field → 400 naming limits.maxDepth', {
    timeout: 60_000,
  }, async () => {
    const deep = deepJson(5000);
    const cases: Array<[string, string]> = [
      ['/v1/agl/rollouts', `{"input": ${deep}}`],
      [
        '/v1/agl/queues/rollouts/enqueue',
        `{"rollouts": [{"input": 1, "metadata": {"m": ${deep}}}]}`,
      ],
      [`/v1/agl/rollouts/${rolloutId}`, `{"metadata": {"m": ${deep}}}`],
      [`/v1/agl/rollouts/${rolloutId}/attempts/${attemptId}`, `{"metadata": {"m": ${deep}}}`],
      ['/v1/agl/workers/w-hostile', `{"heartbeat_stats": {"s": ${deep}}}`],
      [
        '/v1/agl/resources',
        `{"llm": {"resource_type": "llm", "endpoint": "http://x", "model": "m", "sampling_parameters": {"p": ${deep}}}}`,
      ],
      [
        '/v1/agl/spans',
        `{"rollout_id": "${rolloutId}", "attempt_id": "${attemptId}", "attributes": {"a": ${deep}}}`,
      ],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body, json);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, path).toContain('limits.maxDepth');
    }
  });

  it('deep nesting and missing ids over OTLP, both encodings → 400', {
    timeout: 60_000,
  }, async () => {
    const attribution = [
      kv('agentlightning.rollout_id', text(1, rolloutId)),
      kv('agentlightning.attempt_id', text(1, attemptId)),
    ];
    const deepProto = protoRequest(attribution, [
      protoSpan({}, [kv('deep', deepProtoValue(5000))]),
    ]);
    expect((await post('/v1/traces', deepProto, proto)).status).toBe(400);
    const open = '{"arrayValue":{"values":['.repeat(5000);
    const deepJsonSpan = `{"traceId":"${'ab'.repeat(16)}","spanId":"${'cd'.repeat(8)}","attributes":[{"key":"deep","value":${open}{"stringValue":"x"}${']}}'.repeat(5000)}}]}`;
    const deepOtlpJson = `{"resourceSpans":[{"scopeSpans":[{"spans":[${deepJsonSpan}]}]}]}`;
    const res = await post('/v1/traces', deepOtlpJson, json);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('limits.maxDepth');
    for (const ids of [{ trace: false }, { span: false }]) {
      expect(
        (await post('/v1/traces', protoRequest(attribution, [protoSpan(ids)]), proto)).status,
      ).toBe(400);
    }
    const noIds = '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x"}]}]}]}';
    expect((await post('/v1/traces', noIds, json)).status).toBe(400);
  });

  it('a listing larger than limits.maxItemsPerResponse (100,000) → 413 naming it, pages still served', {
    timeout: 120_000,
  }, async () => {
    for (let done = 0; done < 100_000; done += 10_000) {
      const rollouts = Array.from({ length: 10_000 }, (_, i) => ({ input: { i: done + i } }));
      const res = await post('/v1/agl/queues/rollouts/enqueue', JSON.stringify({ rollouts }), json);
      expect(res.status).toBe(201);
      await res.arrayBuffer(); // read: an unread answer holds its connection until the drain timeout
    }
    for (const path of ['/v1/agl/rollouts', '/v1/agl/rollouts?limit=200000']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(413);
      expect(((await res.json()) as { detail: string }).detail, path).toMatch(
        /^A page of 100001 rollouts exceeds limits\.maxItemsPerResponse \(100000\): ask for them in pages/,
      );
    }
    const page = await fetch(`${url}/v1/agl/rollouts?limit=1000&offset=99500&sort_by=start_time`);
    expect(page.status).toBe(200);
    const body = (await page.json()) as { items: unknown[]; total: number };
    expect(body.items).toHaveLength(501);
    expect(body.total).toBe(100_001);
  });

  it('afterwards: bounded peak RSS, healthy, earlier data intact', async () => {
    const memory = memoryOf(child.pid!);
    console.log(
      `arclight store RSS: baseline ${baseline.rssMiB.toFixed(0)} MiB, peak under hostile input ${memory.peakMiB.toFixed(0)} MiB`,
    );
    // Inflating one request to the 64 MiB cap plus its scan is the most any of the above may cost.
    expect(memory.peakMiB - baseline.peakMiB, JSON.stringify({ baseline, memory })).toBeLessThan(
      400,
    );
    expect((await fetch(`${url}/v1/agl/health`)).status).toBe(200);
    const rollout = (await (await fetch(`${url}/v1/agl/rollouts/${rolloutId}`)).json()) as {
      input: unknown;
    };
    expect(rollout.input).toEqual({ task: 'keep me' });
    const spans = (await (await fetch(`${url}/v1/agl/spans?rollout_id=${rolloutId}`)).json()) as {
      total: number;
    };
    expect(spans.total).toBe(1);
    expect(child.exitCode).toBeNull();
  });
});
