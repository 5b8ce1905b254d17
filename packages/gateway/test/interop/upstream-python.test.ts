import { fileURLToPath } from 'node:url';
import { createLightningStoreServer, type LightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import {
  hasPython,
  PYTHON_TIMEOUT_MS,
  requirePython,
  runPython,
  SKIP_PYTHON,
  summaryOf,
} from '@arclight/test-fixtures/python';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmGateway, startGateway } from '../../src/index.js';

const ROUNDTRIP = fileURLToPath(new URL('python/upstream_roundtrip.py', import.meta.url));

interface Returned {
  text: string;
  prompt_token_ids: number[];
  response_token_ids: number[];
}
interface ModeSummary {
  rollout_id: string;
  base_url: string;
  returned: Returned;
  span_names: string[];
  span_rollouts: string[];
  triplets: Array<{
    prompt_token_ids: number[];
    response_token_ids: number[];
    raw_prompt: unknown;
  }>;
}

/**
 * Upstream agentlightning 0.3.0 against the gateway: its `ProxyLLM` routes the `openai` Python client, the
 * gateway writes spans over OTLP to a store server (ours, wire-compatible with upstream's — one Python process
 * instead of two; the OTLP path to upstream's own `agl store` is the tracer's, cross-checked in
 * packages/otel), upstream's `LightningStoreClient` reads them back and upstream's `TracerTraceToTriplet` builds
 * triplets with the backend's token ids — streamed and plain alike.
 */
describe.skipIf(SKIP_PYTHON)('upstream Python client, store and adapter with the gateway', () => {
  let server: LightningStoreServer | undefined;
  let storeUrl = '';
  let llm: FixtureLlm | undefined;
  let gateway: LlmGateway | undefined;

  beforeAll(async () => {
    if (!hasPython()) return;
    llm = await startFixtureLlm();
    server = createLightningStoreServer(new InMemoryLightningStore(), { port: 0 });
    storeUrl = await server.listen();
    gateway = await startGateway({
      backends: [{ url: llm.baseUrl }],
      otlpEndpoint: storeUrl,
      healthCheckIntervalMs: 0,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await server?.close();
    await llm?.close();
  });

  it(
    'gets triplets with the backend token ids from the gateway spans',
    async () => {
      requirePython();
      const endpoint = gateway!.asResource().endpoint;
      const summary = summaryOf<Record<'plain' | 'stream', ModeSummary>>(
        await runPython([ROUNDTRIP, storeUrl, endpoint, 'fixture-model']),
      );
      const { plain, stream } = summary;
      for (const mode of [plain, stream]) {
        expect(mode.base_url).toBe(
          `${gateway!.url}/rollout/${mode.rollout_id}/attempt/${mode.base_url.split('/attempt/')[1]}`,
        );
        expect(mode.span_rollouts).toEqual([mode.rollout_id]);
        expect(mode.span_names).toContain('openai.chat.completion');
        expect(mode.triplets).toHaveLength(1);
        expect(mode.returned.prompt_token_ids.length).toBeGreaterThan(5);
        expect(mode.triplets[0]!.prompt_token_ids).toEqual(mode.returned.prompt_token_ids);
        expect(mode.triplets[0]!.response_token_ids).toEqual(mode.returned.response_token_ids);
      }
      expect(stream.returned.text).toBe(plain.returned.text);
      expect(stream.triplets[0]!.response_token_ids).toEqual(plain.triplets[0]!.response_token_ids);
      expect(stream.triplets[0]!.prompt_token_ids).toEqual(plain.triplets[0]!.prompt_token_ids);
      expect(llm!.tokenizer.decode(plain.triplets[0]!.response_token_ids)).toBe(
        `${plain.returned.text}<|im_end|>`,
      );
    },
    PYTHON_TIMEOUT_MS,
  );
});
