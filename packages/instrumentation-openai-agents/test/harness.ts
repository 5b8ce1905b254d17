import type { Span } from '@arclight/core';
import { InMemorySpanDestination, LightningTracer } from '@arclight/otel';

/** A `LightningTracer` writing into memory, plus readers for what it stored. */
export class TracerHarness {
  readonly sink = new InMemorySpanDestination();
  readonly tracer = new LightningTracer({
    destination: this.sink,
    activate: false,
    logger: null,
    scheduledDelayMillis: 1,
  });
  private rollouts = 0;

  /** Runs `fn` as a new rollout; resolves with its result and the rollout's stored spans. */
  async rollout<T>(fn: () => Promise<T>): Promise<{ result: T; spans: Span[]; rolloutId: string }> {
    this.rollouts += 1;
    const rolloutId = `ro-${this.rollouts}`;
    const result = await this.tracer.traceContext(
      { rolloutId, attemptId: `at-${this.rollouts}` },
      fn,
    );
    await this.tracer.flush();
    return { result, spans: this.sink.spans(rolloutId), rolloutId };
  }

  async rolloutSettled(fn: () => Promise<unknown>): Promise<{ error: unknown; spans: Span[] }> {
    let error: unknown;
    const { spans } = await this.rollout(async () => {
      try {
        await fn();
      } catch (e) {
        error = e;
      }
    });
    return { error, spans };
  }

  shutdown(): Promise<void> {
    return this.tracer.shutdown();
  }
}

export function byName(spans: readonly Span[], name: string | RegExp): Span[] {
  return spans.filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
}

export function only(spans: readonly Span[], name: string): Span {
  const found = byName(spans, name);
  if (found.length !== 1) {
    throw new Error(
      `expected one span '${name}', found ${found.length}: ${spans.map((s) => s.name)}`,
    );
  }
  return found[0]!;
}

export function parentOf(spans: readonly Span[], span: Span): Span | undefined {
  return spans.find((s) => s.span_id === span.parent_id);
}

/** Names from the span up to its root: `[span, parent, …]`. */
export function ancestry(spans: readonly Span[], span: Span): Span[] {
  const chain: Span[] = [];
  for (let s: Span | undefined = span; s; s = parentOf(spans, s)) chain.push(s);
  return chain;
}

/** `agent.name` of the nearest agent span above (or at) `span`. */
export function agentOf(spans: readonly Span[], span: Span): string | undefined {
  const agent = ancestry(spans, span).find((s) => typeof s.attributes['agent.name'] === 'string');
  return agent?.attributes['agent.name'] as string | undefined;
}

/** Spans ordered by start time (stable). */
export function byStart(spans: readonly Span[]): Span[] {
  return [...spans].sort((a, b) => (a.start_time ?? 0) - (b.start_time ?? 0));
}
