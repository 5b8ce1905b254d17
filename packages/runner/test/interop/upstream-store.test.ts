import { InMemoryLightningStore } from '@arclight/store';
import { type AglStore, SKIP_PYTHON, startAglStore } from '@arclight/test-fixtures/python';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countingClient,
  runScenario,
  SCENARIO_ROLLOUTS,
  storeOutcome,
} from '../support/cycle-scenario.js';

/**
 * A runner over LightningStoreClient against upstream's own `agl store` (agentlightning 0.3.0): the client finds
 * no Arclight extension (404) and runs every rollout through the v0.x routes, leaving upstream's store as a
 * runner on an in-process store leaves ours.
 */
describe.skipIf(SKIP_PYTHON)("a runner against upstream's agl store", () => {
  let agl: AglStore | undefined;
  afterAll(async () => {
    await agl?.stop();
  });

  it('falls back to the v0.x routes after one capabilities probe, with the same store outcome', async () => {
    agl = await startAglStore({ timeoutMs: 90_000 });
    const { client, counts } = countingClient(agl.url, {});
    const setup = countingClient(agl.url, { extensions: false }).client;
    try {
      const seen = await runScenario(setup, client);
      expect((await client.serverExtensions()).size).toBe(0);
      expect(counts['GET /v1/agl/x-arclight/capabilities']).toBe(1);
      expect(counts['POST /v1/agl/x-arclight/runner/cycle']).toBeUndefined();
      expect(counts['POST /v1/agl/queues/rollouts/dequeue']).toBe(SCENARIO_ROLLOUTS);
      expect(counts['POST /v1/agl/rollouts/{id}/attempts/{id}']).toBe(SCENARIO_ROLLOUTS);

      const direct = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
      const directSeen = await runScenario(direct, direct);
      expect(seen).toEqual(directSeen);
      expect(await storeOutcome(setup)).toEqual(await storeOutcome(direct));
    } finally {
      await client.close();
      await setup.close();
    }
  });
});
