import { LightningStoreClient } from '@arclight/client';
import { LLM } from '@arclight/core';
import { baselinePrompt, roomSelector } from '@arclight/example-room-selector/dist/agent.js';
import { loadRoomTasks } from '@arclight/example-room-selector/dist/tasks.js';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { Runner } from '@arclight/runner';
import OpenAI from 'openai';
import { closedPort } from './harness.js';

export const TEST_WORKER = 'dashboard-test-runner';

/**
 * The room-selector agent, instrumented like the example, run over HTTP against the served store with its
 * model server gone (a closed port): the OpenAI call fails, the span records the exception, the attempt fails
 * with the error in its metadata. Returns the failed rollouts' ids.
 */
export async function runFailingRollouts(storeUrl: string, count: number): Promise<string[]> {
  const port = await closedPort();
  await runAgent(storeUrl, `http://127.0.0.1:${port}/v1`, count, 'gone');
  const store = new LightningStoreClient(storeUrl);
  try {
    return (await store.queryRollouts({ status_in: ['failed'] })).items.map((r) => r.rollout_id);
  } finally {
    await store.close();
  }
}

/**
 * The room-selector agent, instrumented like the example (token ids requested), on the first `count` tasks
 * against the model at `endpoint`, writing to the store at `storeUrl` over HTTP (spans over OTLP).
 */
export async function runAgent(
  storeUrl: string,
  endpoint: string,
  count: number,
  model = 'simulated',
): Promise<void> {
  const store = new LightningStoreClient(storeUrl);
  const tracer = new LightningTracer({ store });
  const uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: true,
  });
  const runner = new Runner({
    agent: roomSelector,
    store,
    tracer,
    workerId: TEST_WORKER,
    heartbeatInterval: 0,
    // The failures are expected: the attempts record them, the test reads them from the store.
    logger: { warn: () => {}, error: () => {} },
  });
  const resources = {
    prompt_template: baselinePrompt(),
    main_llm: new LLM({
      endpoint,
      model,
      sampling_parameters: { temperature: 0 },
    }),
  };
  try {
    for (const task of loadRoomTasks().slice(0, count)) {
      try {
        await runner.step(task, { resources, mode: 'train' });
      } catch {
        // step() rethrows the agent's error after recording the failed attempt.
      }
    }
    await tracer.flush(10_000);
  } finally {
    uninstrument();
    await runner.close?.();
    await tracer.shutdown();
    await store.close();
  }
}
