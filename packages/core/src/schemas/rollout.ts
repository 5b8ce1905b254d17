import * as z from 'zod';
import type {
  Attempt,
  AttemptedRollout,
  NormalizedEnqueueRolloutRequest,
  Rollout,
  RolloutConfig,
} from '../types/rollout.js';
import { ATTEMPT_STATUSES, ROLLOUT_MODES, ROLLOUT_STATUSES } from '../types/status.js';
import {
  AnyRequiredSchema,
  FloatSchema,
  IntSchema,
  OptionalFloatSchema,
  OptionalJsonObjectSchema,
  OptionalStringSchema,
} from './common.js';
import { parseWith } from './format-error.js';

export const RolloutStatusSchema = z.enum(ROLLOUT_STATUSES);
export const AttemptStatusSchema = z.enum(ATTEMPT_STATUSES);
export const RolloutModeSchema = z.enum(ROLLOUT_MODES);

/** Upstream `RolloutConfig`; every field has a default, unknown keys are dropped. */
export const RolloutConfigSchema = z.compile(
  z.object({
    timeout_seconds: OptionalFloatSchema,
    unresponsive_seconds: OptionalFloatSchema,
    max_attempts: IntSchema.min(1).default(1),
    retry_condition: z.array(AttemptStatusSchema).default(() => []),
  }),
);

const rolloutShape = {
  rollout_id: z.string(),
  input: AnyRequiredSchema,
  start_time: FloatSchema,
  end_time: OptionalFloatSchema,
  mode: RolloutModeSchema.nullable().default(null),
  resources_id: OptionalStringSchema,
  status: RolloutStatusSchema.default('queuing'),
  config: RolloutConfigSchema.default(() => ({
    timeout_seconds: null,
    unresponsive_seconds: null,
    max_attempts: 1,
    retry_condition: [],
  })),
  metadata: OptionalJsonObjectSchema,
};

/** Upstream `Rollout`. */
export const RolloutSchema = z.compile(z.object(rolloutShape));

/** Upstream `Attempt`. */
export const AttemptSchema = z.compile(
  z.object({
    rollout_id: z.string(),
    attempt_id: z.string(),
    sequence_id: IntSchema,
    start_time: FloatSchema,
    end_time: OptionalFloatSchema,
    status: AttemptStatusSchema.default('preparing'),
    worker_id: OptionalStringSchema,
    last_heartbeat_time: OptionalFloatSchema,
    metadata: OptionalJsonObjectSchema,
  }),
);

/** Upstream `AttemptedRollout`: a rollout plus its `attempt`, whose `rollout_id` must match. */
export const AttemptedRolloutSchema = z.compile(
  z
    .object({ ...rolloutShape, attempt: AttemptSchema })
    .refine((value) => value.attempt.rollout_id === value.rollout_id, {
      path: ['attempt', 'rollout_id'],
      error: 'inconsistent rollout_id between the rollout and its attempt',
    }),
);

/** Upstream `EnqueueRolloutRequest`: only `input` is required. */
export const EnqueueRolloutRequestSchema = z.compile(
  z.object({
    input: AnyRequiredSchema,
    mode: RolloutModeSchema.nullable().default(null),
    resources_id: OptionalStringSchema,
    config: RolloutConfigSchema.nullable().default(null),
    metadata: OptionalJsonObjectSchema,
  }),
);

export const parseRolloutConfig = (value: unknown, label = 'config'): RolloutConfig =>
  parseWith(RolloutConfigSchema, value, label);

export const parseRollout = (value: unknown, label = 'rollout'): Rollout =>
  parseWith(RolloutSchema, value, label);

export const parseAttempt = (value: unknown, label = 'attempt'): Attempt =>
  parseWith(AttemptSchema, value, label);

export const parseAttemptedRollout = (value: unknown, label = 'rollout'): AttemptedRollout =>
  parseWith(AttemptedRolloutSchema, value, label);

/** A Rollout or, when the JSON carries a non-null `"attempt"` key, an AttemptedRollout. */
export function parseRolloutOrAttempted(
  value: unknown,
  label = 'rollout',
): Rollout | AttemptedRollout {
  const hasAttempt =
    typeof value === 'object' && value !== null && (value as { attempt?: unknown }).attempt != null;
  return hasAttempt ? parseAttemptedRollout(value, label) : parseRollout(value, label);
}

export const parseEnqueueRolloutRequest = (
  value: unknown,
  label = 'request',
): NormalizedEnqueueRolloutRequest => parseWith(EnqueueRolloutRequestSchema, value, label);

/**
 * A complete, validated, independent copy of a (partial) rollout config; absent fields take upstream's
 * defaults and `null`/`undefined` means "all defaults".
 */
export const normalizeRolloutConfig = (
  config: Partial<RolloutConfig> | null | undefined,
  label = 'config',
): RolloutConfig => parseWith(RolloutConfigSchema, config ?? {}, label);
