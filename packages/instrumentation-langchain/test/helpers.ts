import type { Span } from '@arclight/core';
import { InMemorySpanDestination, LightningTracer } from '@arclight/otel';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { ChatOpenAI, type ChatOpenAIFields } from '@langchain/openai';
import { ArclightCallbackHandler, type ArclightCallbackHandlerOptions } from '../src/index.js';

export interface Harness {
  llm: FixtureLlm;
  tracer: LightningTracer;
  /** Runs `fn` in a trace context and returns its result with the spans it produced. */
  traced<T>(fn: () => Promise<T>): Promise<{ result: T; spans: SpanTree }>;
  handler(options?: ArclightCallbackHandlerOptions): ArclightCallbackHandler;
  close(): Promise<void>;
}

export async function startHarness(
  responders: Parameters<typeof startFixtureLlm>[0] = {},
): Promise<Harness> {
  const llm = await startFixtureLlm({ recordings: false, ...responders });
  const tracer = new LightningTracer({ destination: new InMemorySpanDestination(), logger: null });
  return {
    llm,
    tracer,
    async traced(fn) {
      const result = await tracer.traceContext({}, fn);
      return { result, spans: new SpanTree(tracer.getLastTrace()) };
    },
    handler: (options = {}) =>
      new ArclightCallbackHandler({ tracerProvider: tracer.tracerProvider, ...options }),
    async close() {
      await llm.close();
      await tracer.shutdown();
    },
  };
}

/** `ChatOpenAI` against the fixture server, asking for token ids and keeping the raw response. */
export function fixtureChat(llm: FixtureLlm, fields: Partial<ChatOpenAIFields> = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: 'fixture-model',
    apiKey: 'unused',
    maxRetries: 0,
    configuration: { baseURL: llm.baseUrl },
    modelKwargs: { return_token_ids: true },
    __includeRawResponse: true,
    ...fields,
  });
}

/** The spans of one trace, with tree navigation. */
export class SpanTree {
  constructor(readonly spans: Span[]) {}

  named(name: string | RegExp): Span[] {
    return this.spans.filter((s) =>
      typeof name === 'string' ? s.name === name : name.test(s.name),
    );
  }

  one(name: string | RegExp): Span {
    const found = this.named(name);
    if (found.length !== 1) {
      throw new Error(`expected one span named ${name}, found ${found.length}: ${this.outline()}`);
    }
    return found[0]!;
  }

  parent(span: Span): Span | undefined {
    return this.spans.find((s) => s.span_id === span.parent_id);
  }

  children(span: Span): Span[] {
    return this.spans
      .filter((s) => s.parent_id === span.span_id)
      .sort((a, b) => (a.start_time ?? 0) - (b.start_time ?? 0));
  }

  roots(): Span[] {
    const ids = new Set(this.spans.map((s) => s.span_id));
    return this.spans.filter((s) => s.parent_id === null || !ids.has(s.parent_id));
  }

  /** The nearest ancestor carrying `langchain.chain.type` (the agent the adapter attributes a call to). */
  agentOf(span: Span): string | undefined {
    for (let p = this.parent(span); p; p = this.parent(p)) {
      const agent = p.attributes['langchain.chain.type'];
      if (typeof agent === 'string') return agent;
    }
    return undefined;
  }

  /** `name` per line, indented by depth (children in start order). */
  outline(): string {
    const lines: string[] = [];
    const visit = (span: Span, depth: number) => {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      for (const child of this.children(span)) visit(child, depth + 1);
    };
    for (const root of this.roots()) visit(root, 0);
    return `\n${lines.join('\n')}`;
  }
}
