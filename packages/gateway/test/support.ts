import type { Span } from '@arclight/core';
import type { InMemoryLightningStore } from '@arclight/store';
import type { LlmGateway } from '../src/index.js';

/** A rollout with one attempt in `store`. */
export async function newRollout(
  store: InMemoryLightningStore,
  input: unknown = { task: 'x' },
): Promise<{ rolloutId: string; attemptId: string }> {
  const rollout = await store.startRollout({ input });
  return { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
}

/** The spans of a rollout once the gateway's tracer has written everything queued. */
export async function spansOf(
  gateway: LlmGateway,
  store: InMemoryLightningStore,
  rolloutId: string,
): Promise<Span[]> {
  const flushed = await gateway.tracer.flush(20_000);
  if (!flushed) throw new Error('gateway tracer did not flush within 20 s');
  return (await store.querySpans(rolloutId)).items;
}

/** The one LLM-call span (name `openai.*`) of a rollout. */
export function llmSpan(spans: Span[]): Span {
  const calls = spans.filter((s) => s.name.startsWith('openai.'));
  if (calls.length !== 1) {
    throw new Error(
      `expected one LLM span, got ${calls.length}: ${spans.map((s) => s.name).join(', ')}`,
    );
  }
  return calls[0]!;
}

/** Polls `check` until it returns a value other than undefined/false, failing after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
