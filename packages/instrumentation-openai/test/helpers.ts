import { type FixtureLlm, type FixtureLlmOptions, startFixtureLlm } from '@arclight/test-fixtures';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import OpenAI7 from 'openai';
import OpenAI6 from 'openai6';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  instrumentOpenAI,
  type OpenAIInstrumentationOptions,
  type Uninstrument,
} from '../src/index.js';

/** Both supported SDK majors; the tests run against each. */
export const SDKS = [
  { name: 'openai@7', OpenAI: OpenAI7 },
  { name: 'openai@6', OpenAI: OpenAI6 as unknown as typeof OpenAI7 },
] as const;

export type SdkUnderTest = (typeof SDKS)[number];
export type Client = OpenAI7;

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers an AsyncLocalStorage context manager once per test file (like an SDK setup would). */
export function useAsyncContext(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

export interface Harness {
  llm: FixtureLlm;
  exporter: InMemorySpanExporter;
  provider: TracerProvider;
  client(extra?: Partial<ConstructorParameters<typeof OpenAI7>[0]>): Client;
  instrument(options?: OpenAIInstrumentationOptions): Uninstrument;
  /** Removes the harness' instrumentation (so a test can instrument the SDK its own way). */
  uninstrument(): void;
  close(): Promise<void>;
}

/** A fixture LLM, an in-memory exporter and a client factory for one SDK. */
export async function harness(
  sdk: SdkUnderTest,
  fixture: FixtureLlmOptions = {},
): Promise<Harness> {
  useAsyncContext();
  const llm = await startFixtureLlm({ recordings: false, ...fixture });
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let uninstrument: Uninstrument | undefined;
  return {
    llm,
    exporter,
    provider,
    client: (extra = {}) =>
      new sdk.OpenAI({ baseURL: llm.baseUrl, apiKey: 'x', maxRetries: 0, ...extra }),
    instrument(options = {}) {
      uninstrument?.();
      uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: provider, ...options });
      return uninstrument;
    },
    uninstrument() {
      uninstrument?.();
      uninstrument = undefined;
    },
    async close() {
      uninstrument?.();
      await llm.close();
      await provider.shutdown();
    },
  };
}

/**
 * The harness of one `describe` block: started before its tests and closed after them; before each test its
 * spans and recorded requests are emptied and the SDK is instrumented with `options`.
 */
export function useHarness(sdk: SdkUnderTest, options: OpenAIInstrumentationOptions = {}): Harness {
  let current: Harness | undefined;
  const started = (): Harness => {
    if (!current) throw new Error('useHarness: the harness is only there while the tests run');
    return current;
  };
  beforeAll(async () => {
    current = await harness(sdk);
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    const h = started();
    h.exporter.reset();
    h.llm.reset();
    h.instrument(options);
  });
  return {
    get llm() {
      return started().llm;
    },
    get exporter() {
      return started().exporter;
    },
    get provider() {
      return started().provider;
    },
    client: (extra) => started().client(extra),
    instrument: (instrumentOptions) => started().instrument(instrumentOptions),
    uninstrument: () => started().uninstrument(),
    close: () => started().close(),
  };
}

/** The finished spans named `name`, oldest first. */
export function spansNamed(exporter: InMemorySpanExporter, name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.name === name);
}

/** The only finished span named `name`. */
export function onlySpan(exporter: InMemorySpanExporter, name: string): ReadableSpan {
  const spans = spansNamed(exporter, name);
  if (spans.length !== 1) {
    throw new Error(
      `expected one ${name} span, got ${spans.length}: ${exporter.getFinishedSpans().map((s) => s.name)}`,
    );
  }
  return spans[0]!;
}

/** Span attributes as a plain object with sorted keys (stable snapshots). */
export function attributesOf(span: ReadableSpan): Record<string, unknown> {
  return Object.fromEntries(Object.entries(span.attributes).sort(([a], [b]) => a.localeCompare(b)));
}

/** Attributes minus the given keys. */
export function without(
  attributes: Record<string, unknown>,
  ...keys: string[]
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([k]) => !keys.includes(k)));
}

/** The JSON body of the last request the fixture received. */
export function lastRequestBody(llm: FixtureLlm): Record<string, unknown> {
  const request = llm.requests.at(-1);
  if (!request) throw new Error('the fixture received no request');
  return request.body as Record<string, unknown>;
}
