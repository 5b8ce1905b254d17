/**
 * Schema version 1 (version 2 drops `spans_by_sequence`, see migrations.ts). Every table keeps the full record as JSON in `data` plus scalar copies of the fields
 * that queries filter or sort by; `pk` (the rowid) records insertion order and breaks sort ties. Records are
 * replaced with UPSERTs, which keep their `pk`, so a replaced record keeps its place in insertion order.
 */
export const SCHEMA_V1 = `
CREATE TABLE rollouts (
  pk INTEGER PRIMARY KEY,
  rollout_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  start_time REAL,
  end_time REAL,
  mode TEXT,
  resources_id TEXT,
  data TEXT NOT NULL
);
CREATE INDEX rollouts_by_status ON rollouts (status);

CREATE TABLE rollout_queue (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  rollout_id TEXT NOT NULL
);
CREATE INDEX rollout_queue_by_rollout ON rollout_queue (rollout_id);

CREATE TABLE attempts (
  pk INTEGER PRIMARY KEY,
  rollout_id TEXT NOT NULL,
  attempt_id TEXT NOT NULL,
  sequence_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  start_time REAL,
  end_time REAL,
  worker_id TEXT,
  last_heartbeat_time REAL,
  data TEXT NOT NULL,
  UNIQUE (rollout_id, attempt_id)
);
CREATE INDEX attempts_by_sequence ON attempts (rollout_id, sequence_id);

CREATE TABLE spans (
  pk INTEGER PRIMARY KEY,
  rollout_id TEXT NOT NULL,
  attempt_id TEXT NOT NULL,
  span_id TEXT NOT NULL,
  sequence_id INTEGER NOT NULL,
  trace_id TEXT NOT NULL,
  parent_id TEXT,
  name TEXT NOT NULL,
  start_time REAL,
  end_time REAL,
  data TEXT NOT NULL,
  UNIQUE (rollout_id, attempt_id, span_id)
);
CREATE INDEX spans_by_sequence ON spans (rollout_id, attempt_id, sequence_id);

-- Running totals of the spans table, maintained by every span insert (counting would read every row).
CREATE TABLE span_totals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  spans INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
INSERT INTO span_totals (id, spans, bytes) VALUES (1, 0, 0);

-- last_id = the last sequence id handed out for the rollout (0 before the first).
CREATE TABLE span_sequences (
  rollout_id TEXT PRIMARY KEY,
  last_id INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE resources (
  pk INTEGER PRIMARY KEY,
  resources_id TEXT NOT NULL UNIQUE,
  create_time REAL,
  update_time REAL,
  version INTEGER,
  write_seq INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX resources_by_update_time ON resources (update_time, write_seq);

CREATE TABLE workers (
  pk INTEGER PRIMARY KEY,
  worker_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  last_heartbeat_time REAL,
  last_dequeue_time REAL,
  last_busy_time REAL,
  last_idle_time REAL,
  current_rollout_id TEXT,
  current_attempt_id TEXT,
  data TEXT NOT NULL
);
CREATE INDEX workers_by_status ON workers (status);
`;
