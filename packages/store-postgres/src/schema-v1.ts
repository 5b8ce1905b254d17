/**
 * Schema version 1. Every record is kept whole as `doc` (json, so key order and any string survive as written)
 * with the fields that are filtered or sorted on extracted as stored generated columns. `ord` is insertion
 * order (ties of every sort). Text columns use the "C" collation: byte order of UTF-8 is code-point order,
 * which is how the other backends (and upstream's Python) compare strings.
 */
export const SCHEMA_V1 = `
CREATE TABLE rollouts (
  rollout_id text COLLATE "C" PRIMARY KEY,
  ord bigserial NOT NULL,
  doc json NOT NULL,
  status text COLLATE "C" GENERATED ALWAYS AS (doc->>'status') STORED,
  start_time float8 GENERATED ALWAYS AS ((doc->>'start_time')::float8) STORED,
  end_time float8 GENERATED ALWAYS AS ((doc->>'end_time')::float8) STORED,
  mode text COLLATE "C" GENERATED ALWAYS AS (doc->>'mode') STORED,
  resources_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'resources_id') STORED
);
CREATE INDEX rollouts_ord ON rollouts (ord);
CREATE INDEX rollouts_status ON rollouts (status);

CREATE TABLE rollout_queue (
  pos bigserial PRIMARY KEY,
  rollout_id text COLLATE "C" NOT NULL
);
CREATE INDEX rollout_queue_rollout ON rollout_queue (rollout_id);

CREATE TABLE attempts (
  rollout_id text COLLATE "C" NOT NULL,
  attempt_id text COLLATE "C" NOT NULL,
  ord bigserial NOT NULL,
  doc json NOT NULL,
  sequence_id integer GENERATED ALWAYS AS ((doc->>'sequence_id')::integer) STORED,
  start_time float8 GENERATED ALWAYS AS ((doc->>'start_time')::float8) STORED,
  end_time float8 GENERATED ALWAYS AS ((doc->>'end_time')::float8) STORED,
  status text COLLATE "C" GENERATED ALWAYS AS (doc->>'status') STORED,
  worker_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'worker_id') STORED,
  last_heartbeat_time float8 GENERATED ALWAYS AS ((doc->>'last_heartbeat_time')::float8) STORED,
  PRIMARY KEY (rollout_id, attempt_id),
  UNIQUE (rollout_id, sequence_id)
);

CREATE TABLE spans (
  rollout_id text COLLATE "C" NOT NULL,
  attempt_id text COLLATE "C" NOT NULL,
  span_id text COLLATE "C" NOT NULL,
  ord bigserial NOT NULL,
  doc json NOT NULL,
  bytes integer NOT NULL,
  sequence_id bigint GENERATED ALWAYS AS ((doc->>'sequence_id')::bigint) STORED,
  trace_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'trace_id') STORED,
  parent_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'parent_id') STORED,
  name text COLLATE "C" GENERATED ALWAYS AS (doc->>'name') STORED,
  start_time float8 GENERATED ALWAYS AS ((doc->>'start_time')::float8) STORED,
  end_time float8 GENERATED ALWAYS AS ((doc->>'end_time')::float8) STORED,
  PRIMARY KEY (rollout_id, attempt_id, span_id)
);
CREATE INDEX spans_rollout_ord ON spans (rollout_id, ord);

CREATE TABLE span_sequences (
  rollout_id text COLLATE "C" PRIMARY KEY,
  last_id bigint NOT NULL
);

CREATE SEQUENCE resources_writes;
CREATE TABLE resources (
  resources_id text COLLATE "C" PRIMARY KEY,
  ord bigserial NOT NULL,
  write_seq bigint NOT NULL,
  doc json NOT NULL,
  create_time float8 GENERATED ALWAYS AS ((doc->>'create_time')::float8) STORED,
  update_time float8 GENERATED ALWAYS AS ((doc->>'update_time')::float8) STORED,
  version integer GENERATED ALWAYS AS ((doc->>'version')::integer) STORED
);
CREATE INDEX resources_latest ON resources (update_time DESC, write_seq DESC);

CREATE TABLE workers (
  worker_id text COLLATE "C" PRIMARY KEY,
  ord bigserial NOT NULL,
  doc json NOT NULL,
  status text COLLATE "C" GENERATED ALWAYS AS (doc->>'status') STORED,
  last_heartbeat_time float8 GENERATED ALWAYS AS ((doc->>'last_heartbeat_time')::float8) STORED,
  last_dequeue_time float8 GENERATED ALWAYS AS ((doc->>'last_dequeue_time')::float8) STORED,
  last_busy_time float8 GENERATED ALWAYS AS ((doc->>'last_busy_time')::float8) STORED,
  last_idle_time float8 GENERATED ALWAYS AS ((doc->>'last_idle_time')::float8) STORED,
  current_rollout_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'current_rollout_id') STORED,
  current_attempt_id text COLLATE "C" GENERATED ALWAYS AS (doc->>'current_attempt_id') STORED
);

-- The watchdog's last scan, shared by every process over this schema.
CREATE TABLE watchdog (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_scan float8 NOT NULL
);
INSERT INTO watchdog (last_scan) VALUES ('-Infinity');
`;
