import {
  type Attempt,
  type AttemptedRollout,
  isAttemptedRollout,
  NotFoundError,
  type Rollout,
  type Span,
  ValidationError,
} from '@arclight/core';
import { expect } from 'vitest';
import type { LightningStore } from '../lightning-store.js';
import type { CaseContext } from './target.js';

export const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

let spanCounter = 0;

export interface SpanKey {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
}

/**
 * A complete wire span. `seed` (default: a fresh counter value) derives `span_id` (16 hex) and `trace_id`
 * (32 hex); any field can be overridden.
 */
export function makeSpan(key: SpanKey, overrides: Partial<Span> & { seed?: number } = {}): Span {
  const { seed = ++spanCounter + 0x1000, ...rest } = overrides;
  const spanId = hex(seed, 16);
  const traceId = hex(seed, 32);
  return {
    rollout_id: key.rollout_id,
    attempt_id: key.attempt_id,
    sequence_id: key.sequence_id,
    trace_id: traceId,
    span_id: spanId,
    parent_id: null,
    name: `span-${seed}`,
    status: { status_code: 'OK', description: null },
    attributes: {},
    events: [],
    links: [],
    start_time: null,
    end_time: null,
    context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} },
    parent: null,
    resource: { attributes: {}, schema_url: '' },
    ...rest,
  };
}

/** Adds one span to the given attempt with a freshly allocated sequence id (a heartbeat). */
export async function heartbeat(
  store: LightningStore,
  rolloutId: string,
  attemptId: string,
): Promise<Span> {
  const sequenceId = await store.getNextSpanSequenceId(rolloutId, attemptId);
  const stored = await store.addSpan(
    makeSpan({ rollout_id: rolloutId, attempt_id: attemptId, sequence_id: sequenceId }),
  );
  expect(stored, 'a fresh span must be stored').not.toBeNull();
  return stored!;
}

async function capture(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected the call to be rejected, but it resolved');
}

async function expectFailure(
  ctx: CaseContext,
  promise: Promise<unknown>,
  errorClass: typeof NotFoundError | typeof ValidationError,
  mentions: readonly string[],
): Promise<Error> {
  const error = await capture(promise);
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  for (const mention of mentions) expect(message).toContain(mention);
  if (ctx.typedErrors) expect(error).toBeInstanceOf(errorClass);
  return error as Error;
}

/** The call rejects (with `NotFoundError` on typed targets) and the message names every `mentions` item. */
export const expectNotFound = (
  ctx: CaseContext,
  promise: Promise<unknown>,
  ...mentions: string[]
): Promise<Error> => expectFailure(ctx, promise, NotFoundError, mentions);

/** The call rejects (with `ValidationError` on typed targets) and the message names every `mentions` item. */
export const expectInvalid = (
  ctx: CaseContext,
  promise: Promise<unknown>,
  ...mentions: string[]
): Promise<Error> => expectFailure(ctx, promise, ValidationError, mentions);

/** The stored rollout; fails the case when it is missing. */
export async function getRollout(store: LightningStore, rolloutId: string): Promise<Rollout> {
  const rollout = await store.getRolloutById(rolloutId);
  expect(rollout, `rollout ${rolloutId} should exist`).not.toBeNull();
  return rollout!;
}

export async function rolloutStatus(store: LightningStore, rolloutId: string): Promise<string> {
  return (await getRollout(store, rolloutId)).status;
}

/** The latest attempt; fails the case when there is none. */
export async function latestAttempt(store: LightningStore, rolloutId: string): Promise<Attempt> {
  const attempt = await store.getLatestAttempt(rolloutId);
  expect(attempt, `rollout ${rolloutId} should have an attempt`).not.toBeNull();
  return attempt!;
}

export async function attemptsOf(store: LightningStore, rolloutId: string): Promise<Attempt[]> {
  return (await store.queryAttempts(rolloutId)).items;
}

/** Dequeues and fails the case if the queue was empty. */
export async function dequeue(store: LightningStore, workerId?: string): Promise<AttemptedRollout> {
  const got = await store.dequeueRollout(
    workerId === undefined ? undefined : { worker_id: workerId },
  );
  expect(got, 'the queue should not be empty').not.toBeNull();
  return got!;
}

export function expectAttached(rollout: Rollout | null, attemptId: string): void {
  expect(rollout).not.toBeNull();
  expect(isAttemptedRollout(rollout!), 'the latest attempt should be attached').toBe(true);
  expect((rollout as AttemptedRollout).attempt.attempt_id).toBe(attemptId);
}

export function expectNoAttempt(rollout: Rollout | null): void {
  expect(rollout).not.toBeNull();
  expect((rollout as Partial<AttemptedRollout>).attempt ?? null).toBeNull();
}

export const ids = (items: ReadonlyArray<{ rollout_id: string }>): string[] =>
  items.map((item) => item.rollout_id);

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
