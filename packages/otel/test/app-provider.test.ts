import { findFinalReward, ValidationError } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
// The SDK 2.x line (root devDependency), as an application on the previous major would have it.
import {
  BasicTracerProvider as BasicTracerProviderV2,
  InMemorySpanExporter as InMemorySpanExporterV2,
  SimpleSpanProcessor as SimpleSpanProcessorV2,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { emitMessage, emitReward, LightningTracer, operation } from '../src/index.js';
import { newAttempt } from './support/stores.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
  trace.disable();
});
function track(tracer: LightningTracer): LightningTracer {
  tracers.push(tracer);
  return tracer;
}

describe("joining an application's tracer provider", () => {
  it('SDK 2.x provider: Arclight gets the rollout spans, the app exporter still gets every span', async () => {
    const appExporter = new InMemorySpanExporterV2();
    const appProvider = new BasicTracerProviderV2({
      spanProcessors: [new SimpleSpanProcessorV2(appExporter)],
    });
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store, tracerProvider: appProvider }));
    expect(tracer.tracerProvider).toBe(appProvider);
    const ids = await newAttempt(store);
    const appTracer = appProvider.getTracer('app');

    appTracer.startSpan('app.before').end();
    await tracer.traceContext(ids, async () => {
      const span = appTracer.startSpan('app.llm', { attributes: { 'gen_ai.system': 'test' } });
      span.end();
      emitReward(0.9);
    });
    appTracer.startSpan('app.after').end();
    await tracer.flush();

    expect(appExporter.getFinishedSpans().map((s) => s.name)).toEqual([
      'app.before',
      'app.llm',
      'agentlightning.annotation',
      'app.after',
    ]);
    const stored = (await store.querySpans(ids.rolloutId)).items;
    expect(stored.map((s) => s.name)).toEqual(['app.llm', 'agentlightning.annotation']);
    expect(stored[0]!.attributes).toEqual({ 'gen_ai.system': 'test' });
    expect(stored[0]!.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(findFinalReward(stored)).toBe(0.9);
    // Our processor is appended, the application's stays.
    await appProvider.shutdown();
  });

  it('SDK 3.x provider built with spanProcessors: [tracer.spanProcessor]', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    const appExporter = new InMemorySpanExporter();
    const appProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: appExporter }), tracer.spanProcessor],
    });
    tracer.useTracerProvider(appProvider, { processorAdded: true });
    const ids = await newAttempt(store);

    await tracer.traceContext(ids, () =>
      operation.scope({ name: 'step' }, () => {
        emitMessage('inside');
      }),
    );
    const stored = (await store.querySpans(ids.rolloutId)).items;
    expect(stored.map((s) => s.name)).toEqual([
      'agentlightning.message',
      'agentlightning.operation',
    ]);
    expect(stored[0]!.parent_id).toBe(stored[1]!.span_id);
    expect(appExporter.getFinishedSpans()).toHaveLength(2);
    // Adding it again is a no-op (the processor is already there).
    tracer.useTracerProvider(appProvider);
    await tracer.traceContext(ids, () => emitReward(1));
    expect((await store.querySpans(ids.rolloutId)).items).toHaveLength(3);
  });

  it('joins the globally registered provider on request', async () => {
    const appExporter = new InMemorySpanExporter();
    const appProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: appExporter })],
    });
    trace.setGlobalTracerProvider(appProvider);
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store, useGlobalTracerProvider: true }));
    expect(tracer.tracerProvider).toBe(appProvider);
    const ids = await newAttempt(store);
    await tracer.traceContext(ids, () => {
      trace.getTracer('instrumentation').startSpan('via.global.api').end();
    });
    expect((await store.querySpans(ids.rolloutId)).items.map((s) => s.name)).toEqual([
      'via.global.api',
    ]);
    expect(appExporter.getFinishedSpans().map((s) => s.name)).toEqual(['via.global.api']);
  });

  it('keeps its own provider private unless registerGlobal is set', async () => {
    const mine = track(new LightningTracer());
    expect(trace.getTracerProvider().getTracer('x').startSpan('noop').isRecording()).toBe(false);
    await mine.shutdown();
    const registered = track(new LightningTracer({ registerGlobal: true }));
    expect(trace.getTracerProvider().getTracer('x').startSpan('real').isRecording()).toBe(true);
    expect(registered.tracerProvider).toBeDefined();
  });

  it('explains how to connect a provider it cannot extend', () => {
    const opaque = { getTracer: () => trace.getTracer('x') };
    expect(() => new LightningTracer({ tracerProvider: opaque, activate: false })).toThrow(
      ValidationError,
    );
    expect(() => new LightningTracer({ tracerProvider: opaque, activate: false })).toThrow(
      /spanProcessors: \[tracer.spanProcessor\]/,
    );
    trace.disable();
    expect(() => new LightningTracer({ useGlobalTracerProvider: true, activate: false })).toThrow(
      /no SDK tracer provider is registered/,
    );
  });
});
