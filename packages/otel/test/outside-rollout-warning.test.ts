import { resetWarnings, WarningCodes } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LightningTracer } from '../src/index.js';
import { newAttempt } from './support/stores.js';

const CODE = WarningCodes.SPANS_OUTSIDE_ROLLOUT;
let warnings: Error[] = [];
const onWarning = (warning: Error) => {
  if ((warning as Error & { code?: string }).code === CODE) warnings.push(warning);
};
const tracers: LightningTracer[] = [];

beforeEach(() => {
  resetWarnings(CODE);
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(async () => {
  process.off('warning', onWarning);
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

/** `process.emitWarning` delivers on the next tick. */
const settle = () => new Promise((r) => setImmediate(r));

function newTracer(store = new InMemoryLightningStore()): LightningTracer {
  const tracer = new LightningTracer({ store, activate: false, logger: null });
  tracers.push(tracer);
  return tracer;
}

describe('LLM spans outside any rollout', () => {
  it('warn once per process, naming the span and the fix', async () => {
    const tracer = newTracer();
    const otel = tracer.getTracer('instrumentation');
    otel.startSpan('openai.chat.completion').end();
    otel
      .startSpan('ai.generateText.doGenerate', { attributes: { 'gen_ai.system': 'openai' } })
      .end();
    await settle();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.name).toBe('ArclightWarning');
    expect(warnings[0]?.message).toContain("'openai.chat.completion'");
    expect(warnings[0]?.message).toContain('recorder.record(');
    expect(warnings[0]?.message).toContain('traceContext(');
  });

  it('recognise an LLM call by its gen_ai attributes too', async () => {
    newTracer()
      .getTracer('x')
      .startSpan('chat qwen', { attributes: { 'gen_ai.request.model': 'qwen' } })
      .end();
    await settle();
    expect(warnings).toHaveLength(1);
  });

  it('do not warn for other spans, or for LLM calls inside a rollout or an id-less traceContext', async () => {
    const store = new InMemoryLightningStore();
    const tracer = newTracer(store);
    const otel = tracer.getTracer('instrumentation');
    otel.startSpan('tool.call').end();
    const ids = await newAttempt(store, 'r');
    await tracer.traceContext(ids, () => otel.startSpan('openai.chat.completion').end());
    await tracer.traceContext({}, () => otel.startSpan('openai.chat.completion').end());
    await settle();
    expect(warnings).toEqual([]);
    expect((await store.querySpans(ids.rolloutId)).items.map((s) => s.name)).toEqual([
      'openai.chat.completion',
    ]);
  });
});
