import { createLightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliToEnd } from './cli.js';

let llm: FixtureLlm;
const store = new InMemoryLightningStore();
const server = createLightningStoreServer(store, { port: 0 });
let storeUrl: string;

beforeAll(async () => {
  llm = await startFixtureLlm();
  storeUrl = await server.listen();
});

afterAll(async () => {
  await server.close();
  await llm?.close();
});

describe('arclight gateway', () => {
  it('serves rollout-scoped calls, records them into a store server, exits 0 on SIGTERM', async () => {
    const cli = runCli([
      'gateway',
      '--backend',
      `fixture-model=${llm.baseUrl}`,
      '--port',
      '0',
      '--store',
      storeUrl,
      '--health-interval',
      '0',
    ]);
    expect(await cli.startupLine).toMatch(
      /^Arclight gateway listening on http:\/\/127\.0\.0\.1:\d+ \(1 backend\(s\); spans to http/,
    );
    const url = await cli.url;
    const rollout = await store.startRollout({ input: {} });
    const res = await fetch(
      `${url}/rollout/${rollout.rollout_id}/attempt/${rollout.attempt.attempt_id}/v1/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'fixture-model',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { prompt_token_ids: number[] };
    cli.child.kill('SIGTERM');
    const finished = await cli.finished;
    expect(finished.code).toBe(0);
    // Stopping flushes the spans.
    const spans = (await store.querySpans(rollout.rollout_id)).items;
    expect(
      spans.find((s) => s.name === 'openai.chat.completion')?.attributes.prompt_token_ids,
    ).toEqual(body.prompt_token_ids);
  }, 60_000);

  it('rejects a backend that is not a URL with a one-line reason', async () => {
    const result = await runCliToEnd(['gateway', '--backend', 'not a url', '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'arclight gateway: --backend: "not a url" is not a URL (expected [model=]http://host:port/v1)',
    );
  }, 60_000);
});
