import {
  type AttemptedRollout,
  type OtelSpanLike,
  type Span,
  type SpanCoreFields,
  spanFromCoreFields,
  ValidationError,
} from '@arclight/core';
import { emitReward } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import type { RunnerLogger } from './logger.js';
import { classifySpanList, describeItems, type RolloutRawResult } from './rollout-result.js';

export interface PostProcessContext {
  store: LightningStore;
  rollout: AttemptedRollout;
  /** The spans the tracer recorded during the rollout. */
  lastTrace: () => Span[];
  /** Whether the tracer already exports OpenTelemetry spans (returned ReadableSpans are then duplicates). */
  tracerExportsOtel: boolean;
  logger: RunnerLogger;
  prefix: string;
}

/**
 * Records what a rollout returned, as upstream `LitAgentRunner._post_process_rollout_result`, and returns the
 * rollout's spans (for `onRolloutEnd` hooks and logging):
 *
 * - `undefined`/`null` → the tracer's trace; nothing more is written.
 * - number/boolean → a reward span encoded as `emitReward(value, { propagate: false })`, given the next span
 *   sequence id of the attempt and written with `addSpan` (booleans are converted to 1/0 with a warning).
 * - `ReadableSpan[]` → `addOtelSpan` each (a span the store refuses is logged).
 * - `Span[]` → `addSpan` each.
 * - `SpanCoreFields[]` → `getManySpanSequenceIds`, then `addManySpans`.
 * - `[]` → a warning. A mixed list or any other value → `ValidationError` (the attempt fails).
 */
export async function postProcessRolloutResult(
  ctx: PostProcessContext,
  raw: RolloutRawResult,
): Promise<Span[]> {
  const { store, rollout, logger, prefix } = ctx;
  const rolloutId = rollout.rollout_id;
  const attemptId = rollout.attempt.attempt_id;

  if (raw === undefined || raw === null) return ctx.lastTrace();

  if (typeof raw === 'number' || typeof raw === 'boolean') {
    let reward = raw;
    if (typeof reward === 'boolean') {
      logger.warn(`${prefix} Reward is a boolean (${reward}); converting it to a number.`);
      reward = reward ? 1 : 0;
    }
    const spans = ctx.lastTrace();
    const core = emitReward(reward, { propagate: false });
    const sequenceId = await store.getNextSpanSequenceId(rolloutId, attemptId);
    const rewardSpan = spanFromCoreFields(core, {
      rollout_id: rolloutId,
      attempt_id: attemptId,
      sequence_id: sequenceId,
    });
    const stored = await store.addSpan(rewardSpan);
    return [...spans, stored ?? rewardSpan];
  }

  if (Array.isArray(raw)) {
    const items: readonly unknown[] = raw;
    switch (classifySpanList(items)) {
      case 'empty':
        logger.warn(
          `${prefix} The rollout returned an empty list; check the rollout implementation.`,
        );
        return [];
      case 'otel': {
        if (ctx.tracerExportsOtel) {
          logger.warn(
            `${prefix} The tracer already exports OpenTelemetry spans; returning them from the rollout ` +
              'stores them twice.',
          );
        }
        const added: Span[] = [];
        for (const span of items as OtelSpanLike[]) {
          const stored = await store.addOtelSpan(rolloutId, attemptId, span);
          if (stored) added.push(stored);
          else
            logger.error(`${prefix} The store did not add the OpenTelemetry span '${span.name}'.`);
        }
        return added;
      }
      case 'span': {
        const spans = items as Span[];
        for (const span of spans) await store.addSpan(span);
        return [...spans];
      }
      case 'core': {
        const cores = items as SpanCoreFields[];
        const sequenceIds = await store.getManySpanSequenceIds(
          cores.map(() => [rolloutId, attemptId] as [string, string]),
        );
        const spans = cores.map((core, i) =>
          spanFromCoreFields(core, {
            rollout_id: rolloutId,
            attempt_id: attemptId,
            sequence_id: sequenceIds[i]!,
          }),
        );
        await store.addManySpans(spans);
        return spans;
      }
      case 'mixed':
        throw new ValidationError(
          'rollout result: expected a list of ReadableSpan, Span or SpanCoreFields (all of one kind), ' +
            `got: ${describeItems(items)}`,
        );
    }
  }

  const other: unknown = raw;
  throw new ValidationError(
    'rollout result: expected nothing, a number, or a list of ReadableSpan, Span or SpanCoreFields, ' +
      `got ${describeItems([other])}`,
  );
}
