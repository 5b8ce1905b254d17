import type { Span } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';

/** An in-process store whose span writes fail `failures` times (all of them by default), then work. */
export class FailingStore extends InMemoryLightningStore {
  writeAttempts = 0;

  constructor(private failures = Number.POSITIVE_INFINITY) {
    super();
  }

  override async addManySpans(spans: Span[]): Promise<Span[]> {
    this.writeAttempts += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('store is down');
    }
    return super.addManySpans(spans);
  }
}

/** An in-process store whose span writes never answer. */
export class HangingStore extends InMemoryLightningStore {
  writeAttempts = 0;

  override addManySpans(_spans: Span[]): Promise<Span[]> {
    this.writeAttempts += 1;
    return new Promise(() => {});
  }
}

/** Starts a rollout and returns the ids `traceContext` needs. */
export async function newAttempt(
  store: InMemoryLightningStore | { startRollout: InMemoryLightningStore['startRollout'] },
  input: unknown = 'task',
): Promise<{ rolloutId: string; attemptId: string }> {
  const rollout = await store.startRollout({ input });
  return { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A logger that keeps warnings. */
export function recordingLogger(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message: string) => messages.push(message) };
}
