/** Example wire JSON from the reference (§3.2), made concrete. */
export const ROLLOUT_JSON = {
  rollout_id: 'ro-1a2b3c4d5e6f',
  input: { question: 'What is 2 + 2?', answer: 4 },
  start_time: 1734000000.12,
  end_time: null,
  mode: 'train',
  resources_id: 'rs-0123456789ab',
  status: 'preparing',
  config: {
    timeout_seconds: null,
    unresponsive_seconds: null,
    max_attempts: 1,
    retry_condition: [],
  },
  metadata: {},
} as const;

export const ATTEMPT_JSON = {
  rollout_id: 'ro-1a2b3c4d5e6f',
  attempt_id: 'at-9f8e7d6c',
  sequence_id: 1,
  start_time: 1734000000.12,
  end_time: null,
  status: 'preparing',
  worker_id: 'Worker-0',
  last_heartbeat_time: null,
  metadata: null,
} as const;

export const ATTEMPTED_ROLLOUT_JSON = { ...ROLLOUT_JSON, attempt: ATTEMPT_JSON };

export const SPAN_JSON = {
  rollout_id: 'ro-1a2b3c4d5e6f',
  attempt_id: 'at-9f8e7d6c',
  sequence_id: 3,
  trace_id: '0af7651916cd43dd8448eb211c80319c',
  span_id: 'b7ad6b7169203331',
  parent_id: null,
  name: 'agentlightning.annotation',
  status: { status_code: 'OK', description: null },
  attributes: { 'agentlightning.reward.0.name': 'primary', 'agentlightning.reward.0.value': 1.0 },
  events: [],
  links: [],
  start_time: 1734000001.5,
  end_time: 1734000001.5,
  context: {
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: 'b7ad6b7169203331',
    is_remote: false,
    trace_state: {},
  },
  parent: null,
  resource: { attributes: {}, schema_url: '' },
} as const;

/** A fresh, mutable deep copy of a fixture (what `JSON.parse` of a request body gives). */
export const wire = <T>(value: T): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
