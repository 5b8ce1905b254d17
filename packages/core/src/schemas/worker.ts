import * as z from 'zod';
import { WORKER_STATUSES } from '../types/status.js';
import type { Worker } from '../types/worker.js';
import { OptionalFloatSchema, OptionalJsonObjectSchema, OptionalStringSchema } from './common.js';
import { parseWith } from './format-error.js';

export const WorkerStatusSchema = z.enum(WORKER_STATUSES);

/** Upstream `Worker`: only `worker_id` is required. */
export const WorkerSchema = z.compile(
  z.object({
    worker_id: z.string(),
    status: WorkerStatusSchema.default('unknown'),
    heartbeat_stats: OptionalJsonObjectSchema,
    last_heartbeat_time: OptionalFloatSchema,
    last_dequeue_time: OptionalFloatSchema,
    last_busy_time: OptionalFloatSchema,
    last_idle_time: OptionalFloatSchema,
    current_rollout_id: OptionalStringSchema,
    current_attempt_id: OptionalStringSchema,
  }),
);

export const parseWorker = (value: unknown, label = 'worker'): Worker =>
  parseWith(WorkerSchema, value, label);
