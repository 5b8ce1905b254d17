import { fileURLToPath } from 'node:url';
import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import {
  PYTHON_TIMEOUT_MS,
  runPython,
  SKIP_PYTHON,
  summaryOf,
} from '@arclight/test-fixtures/python';
import { describe, expect, it } from 'vitest';
import { createLightningStoreServer } from '../../src/index.js';

const SCENARIO = fileURLToPath(new URL('python/client_scenario.py', import.meta.url));

/**
 * Upstream's Python `agentlightning.LightningStoreClient` (0.3.0) against this server: every client method,
 * plus OpenTelemetry spans exported by upstream's OtelTracer (LightningStoreOTLPExporter → /v1/traces).
 * The assertions live in `python/client_scenario.py`; here the summary and the stored spans are checked.
 */
const backends: Array<[string, () => LightningStore]> = [
  ['InMemoryLightningStore', () => new InMemoryLightningStore()],
  ['SqliteLightningStore', () => new SqliteLightningStore({ path: ':memory:' })],
];

describe.skipIf(SKIP_PYTHON)(
  "upstream's Python LightningStoreClient against @arclight/server",
  () => {
    it.each(backends)(
      'passes the client scenario over %s',
      async (_name, makeStore) => {
        const store = makeStore();
        const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
        const url = await server.listen();
        try {
          const result = await runPython([SCENARIO, url]);
          const summary = summaryOf<{
            ok: boolean;
            checks: number;
            otlp: { rollout_id: string; attempt_id: string; span_names: string[]; reward: number };
          }>(result);
          expect(summary.ok).toBe(true);
          expect(summary.checks).toBeGreaterThanOrEqual(70);

          // The OTLP-exported spans, read back on this side.
          const spans = await store.querySpans(summary.otlp.rollout_id);
          expect(spans.items.map((s) => s.name).sort()).toEqual([
            'agentlightning.annotation',
            'py.agent.step',
          ]);
          const reward = spans.items.find((s) => s.name === 'agentlightning.annotation')!;
          expect(reward.attempt_id).toBe(summary.otlp.attempt_id);
          expect(reward.attributes['agentlightning.reward.0.name']).toBe('primary');
          expect(reward.attributes['agentlightning.reward.0.value']).toBe(0.75);
          const step = spans.items.find((s) => s.name === 'py.agent.step')!;
          expect(step.events.map((e) => e.name)).toEqual(['tool_call']);
          expect(step.parent).toBeNull();
        } finally {
          await server.close();
          await store.close();
        }
      },
      PYTHON_TIMEOUT_MS,
    );
  },
);
