import { LLM, type Span } from '@arclight/core';
import { baselinePrompt, roomSelector } from '@arclight/example-room-selector/dist/agent.js';
import { loadRoomTasks } from '@arclight/example-room-selector/dist/tasks.js';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { Runner } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { roomSelectorResponders, startFixtureLlm } from '@arclight/test-fixtures';
import OpenAI from 'openai';

/**
 * One room-selector rollout recorded for real: the example's agent, instrumented with @arclight/openai (token
 * ids on), against the fixture LLM server's simulated model, into an in-memory store. Returns its spans.
 */
export async function recordRoomSelectorRollout(): Promise<Span[]> {
  const fixture = await startFixtureLlm({
    recordings: false,
    responders: roomSelectorResponders(),
  });
  const store = new InMemoryLightningStore();
  const tracer = new LightningTracer({ store });
  const uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: true,
  });
  try {
    const runner = new Runner({ agent: roomSelector, store, tracer, heartbeatInterval: 0 });
    const task = loadRoomTasks()[0]!;
    const rollout = await runner.step(task, {
      resources: {
        prompt_template: baselinePrompt(),
        main_llm: new LLM({
          endpoint: fixture.baseUrl,
          model: 'simulated',
          sampling_parameters: { temperature: 0 },
        }),
      },
    });
    await tracer.flush(10_000);
    return (await store.querySpans(rollout.rollout_id)).items;
  } finally {
    uninstrument();
    await tracer.shutdown();
    await fixture.close();
  }
}
