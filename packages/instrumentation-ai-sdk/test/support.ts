import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { TracerTraceToTriplet, type TraceToTripletOptions } from '@arclight/adapter';
import type { Span, Triplet } from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import {
  type FixtureLlm,
  type FixtureRequest,
  respond,
  startFixtureLlm,
} from '@arclight/test-fixtures';
import { jsonSchema, tool } from 'ai';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A fixture LLM, a store and a LightningTracer writing into it. */
export interface Harness {
  llm: FixtureLlm;
  store: InMemoryLightningStore;
  tracer: LightningTracer;
  /** An OpenAI-compatible AI SDK provider named `fixture` (provider id `fixture.chat`). */
  provider: ReturnType<typeof createOpenAICompatible>;
  /** Runs `fn` in a new rollout's `traceContext`; returns its result and the rollout's stored spans. */
  run<T>(fn: () => Promise<T>): Promise<{ result: T; spans: Span[] }>;
  close(): Promise<void>;
}

/**
 * The harness of one `describe` block: started before its tests, closed after them, and the fixture LLM's
 * responders reset after each test.
 */
export function useHarness(): Harness {
  let current: Harness | undefined;
  const started = (): Harness => {
    if (!current) throw new Error('useHarness: the harness is only there while the tests run');
    return current;
  };
  beforeAll(async () => {
    current = await harness();
  });
  afterAll(() => current?.close());
  afterEach(() => current?.llm.reset());
  return {
    get llm() {
      return started().llm;
    },
    get store() {
      return started().store;
    },
    get tracer() {
      return started().tracer;
    },
    get provider() {
      return started().provider;
    },
    run: (fn) => started().run(fn),
    close: () => started().close(),
  };
}

export async function harness(): Promise<Harness> {
  const llm = await startFixtureLlm({ recordings: false });
  const store = new InMemoryLightningStore();
  const tracer = new LightningTracer({ store, logger: null, activate: false });
  const provider = createOpenAICompatible({
    name: 'fixture',
    baseURL: llm.baseUrl,
    apiKey: 'unused',
    includeUsage: true,
  });
  return {
    llm,
    store,
    tracer,
    provider,
    async run<T>(fn: () => Promise<T>) {
      const rollout = await store.startRollout({ input: 'task' });
      const result = await tracer.traceContext(
        { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id },
        fn,
      );
      return { result, spans: (await store.querySpans(rollout.rollout_id)).items };
    },
    async close() {
      await tracer.shutdown();
      await llm.close();
    },
  };
}

/** Replies with a `calculator` tool call while the last message is not a tool result. */
export function calculatorResponder(expression = '6*7') {
  return respond(
    (req: FixtureRequest) =>
      req.tools.some((t) => t.name === 'calculator') && req.messages.at(-1)?.role !== 'tool',
    { tool_calls: [{ name: 'calculator', arguments: { expression } }] },
  );
}

/** A calculator tool that answers `42` (or throws when `fail`). */
export function calculatorTool(fail = false) {
  return tool({
    description: 'Evaluates an arithmetic expression',
    inputSchema: jsonSchema<{ expression: string }>({
      type: 'object',
      properties: { expression: { type: 'string' } },
      required: ['expression'],
    }),
    execute: async ({ expression }) => {
      if (fail) throw new Error(`cannot evaluate ${expression}`);
      return '42';
    },
  });
}

export function named(spans: readonly Span[], name: string): Span[] {
  return spans.filter((s) => s.name === name);
}

export function one(spans: readonly Span[], name: string): Span {
  const found = named(spans, name);
  if (found.length !== 1) throw new Error(`expected one ${name} span, got ${found.length}`);
  return found[0]!;
}

export function childrenOf(spans: readonly Span[], parent: Span): Span[] {
  return spans.filter((s) => s.parent_id === parent.span_id);
}

/** The triplets upstream's default adapter finds. */
export function triplets(spans: readonly Span[], options: TraceToTripletOptions = {}): Triplet[] {
  return new TracerTraceToTriplet(options).adapt(spans);
}

export function intArray(value: unknown): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) {
    throw new Error(`not an integer array: ${JSON.stringify(value)}`);
  }
  return value as number[];
}

/** A triplet's prompt / response token ids. */
export function tripletPromptIds(triplet: Triplet | undefined): number[] {
  return (triplet?.prompt as { token_ids: number[] } | undefined)?.token_ids ?? [];
}

export function tripletResponseIds(triplet: Triplet | undefined): number[] {
  return (triplet?.response as { token_ids: number[] } | undefined)?.token_ids ?? [];
}

/** The JSON bodies of the requests the fixture received. */
export function requestBodies(llm: FixtureLlm): Record<string, unknown>[] {
  return llm.requests.map((r) => (r.body ?? {}) as Record<string, unknown>);
}
