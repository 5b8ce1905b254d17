import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetWarnings, WarningCodes } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LightningTracer } from '../src/index.js';
import { newAttempt } from './support/stores.js';

const CODE = WarningCodes.UNTRACED_LLM_REQUESTS;
let warnings: Error[] = [];
const onWarning = (warning: Error) => {
  if ((warning as Error & { code?: string }).code === CODE) warnings.push(warning);
};
let server: Server;
let base: string;
const store = new InMemoryLightningStore();
const tracer = new LightningTracer({ store, activate: false, logger: null });

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await tracer.shutdown();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  resetWarnings(CODE);
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

/** `process.emitWarning` delivers on the next tick. */
const settle = () => new Promise((r) => setImmediate(r));

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', body: '{}', headers }).then((r) => r.text());

function postWithNodeHttp(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end('{}');
  });
}

async function inRollout(fn: () => Promise<unknown>): Promise<string> {
  const ids = await newAttempt(store, 'r');
  await tracer.traceContext(ids, fn);
  await settle();
  return ids.rolloutId;
}

describe('LLM requests that no LLM-call span records', () => {
  it('warn once per process when a rollout ends, naming the rollout, the request and the fix', async () => {
    const rolloutId = await inRollout(async () => {
      await post('/v1/chat/completions');
      await post('/v1/chat/completions?api-version=1');
    });
    await inRollout(() => post('/v1/responses'));
    expect(warnings).toHaveLength(1);
    const message = warnings[0]?.message ?? '';
    expect(message).toContain(`rollout ${rolloutId} sent 2 LLM request(s)`);
    expect(message).toContain(`POST ${base}/v1/chat/completions)`);
    expect(message).toContain('instrumentOpenAI(OpenAI');
    expect(message).toContain('bundled');
  });

  it('are seen from node:http clients too', async () => {
    await inRollout(() => postWithNodeHttp('/v1/completions'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message, warnings[0]?.message).toContain(`(POST ${base}/v1/completions)`);
  });

  it('do not warn when the rollout recorded an LLM-call span (retries and all)', async () => {
    const otel = tracer.getTracer('instrumentation');
    await inRollout(async () => {
      const span = otel.startSpan('openai.chat.completion');
      await post('/v1/chat/completions');
      await post('/v1/chat/completions');
      span.end();
    });
    expect(warnings).toEqual([]);
  });

  it('do not warn for calls through a gateway that records them, other routes, or outside rollouts', async () => {
    await inRollout(async () => {
      await post('/rollout/ro-1/attempt/at-1/v1/chat/completions');
      await post('/v1/chat/completions', { 'X-Rollout-Id': 'ro-1', 'x-attempt-id': 'at-1' });
      await post('/v1/embeddings');
      await fetch(`${base}/v1/chat/completions`).then((r) => r.text());
    });
    await post('/v1/chat/completions');
    await tracer.traceContext({}, () => post('/v1/chat/completions'));
    await settle();
    expect(warnings).toEqual([]);
  });
});
