import { describe, expect, it } from 'vitest';
import { MODEL_FIELDS, SCALAR_MODEL_FIELDS } from '../src/index.js';

// The field lists the server (allowed `sort_by` values) and the stores (sortable columns) use, read from the
// schemas; they must stay upstream's, in upstream's declaration order.
const UPSTREAM_FIELDS = {
  Rollout: [
    'rollout_id',
    'input',
    'start_time',
    'end_time',
    'mode',
    'resources_id',
    'status',
    'config',
    'metadata',
  ],
  Attempt: [
    'rollout_id',
    'attempt_id',
    'sequence_id',
    'start_time',
    'end_time',
    'status',
    'worker_id',
    'last_heartbeat_time',
    'metadata',
  ],
  ResourcesUpdate: ['resources_id', 'create_time', 'update_time', 'version', 'resources'],
  Worker: [
    'worker_id',
    'status',
    'heartbeat_stats',
    'last_heartbeat_time',
    'last_dequeue_time',
    'last_busy_time',
    'last_idle_time',
    'current_rollout_id',
    'current_attempt_id',
  ],
  Span: [
    'rollout_id',
    'attempt_id',
    'sequence_id',
    'trace_id',
    'span_id',
    'parent_id',
    'name',
    'status',
    'attributes',
    'events',
    'links',
    'start_time',
    'end_time',
    'context',
    'parent',
    'resource',
  ],
};

/** The fields whose values are objects or lists (not sortable): the rest are the scalar fields. */
const OBJECT_VALUED: Record<string, readonly string[]> = {
  Rollout: ['input', 'config', 'metadata'],
  Attempt: ['metadata'],
  ResourcesUpdate: ['resources'],
  Worker: ['heartbeat_stats'],
  Span: ['status', 'attributes', 'events', 'links', 'context', 'parent', 'resource'],
};

describe('MODEL_FIELDS', () => {
  it("lists every field of each wire model in upstream's declaration order", () => {
    expect(MODEL_FIELDS).toEqual(UPSTREAM_FIELDS);
  });

  it('SCALAR_MODEL_FIELDS keeps the strings, numbers and enums (what a store sorts by)', () => {
    const scalar = Object.fromEntries(
      Object.entries(UPSTREAM_FIELDS).map(([model, fields]) => [
        model,
        fields.filter((field) => !OBJECT_VALUED[model]!.includes(field)),
      ]),
    );
    expect(SCALAR_MODEL_FIELDS).toEqual(scalar);
    expect(SCALAR_MODEL_FIELDS.Rollout).toEqual([
      'rollout_id',
      'start_time',
      'end_time',
      'mode',
      'resources_id',
      'status',
    ]);
    expect(Object.isFrozen(MODEL_FIELDS.Span)).toBe(true);
  });
});
