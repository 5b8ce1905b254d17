import { SPANS } from './tables.js';

/** What a span insert does when the span (rollout, attempt, span id) exists: nothing (spans are immutable). */
export const SPAN_CONFLICT = ' ON CONFLICT (rollout_id, attempt_id, span_id) DO NOTHING';

/** The fixed statements of SqliteBackend (queries with filters are built by query-builder.ts). */
export const SQL = {
  /** This connection's row changes so far and the count of other connections' commits (seek-order.ts). */
  changeToken:
    'SELECT total_changes() AS changes, data_version AS version FROM pragma_data_version',
  rolloutById: 'SELECT data FROM rollouts WHERE rollout_id = ?',
  rolloutsWithStatus:
    'SELECT data FROM rollouts WHERE status IN (SELECT value FROM json_each(?)) ORDER BY pk',
  pushQueue: 'INSERT INTO rollout_queue (rollout_id) VALUES (?)',
  popQueue:
    'DELETE FROM rollout_queue WHERE position = (SELECT min(position) FROM rollout_queue) RETURNING rollout_id',
  queueSize: 'SELECT count(*) AS n FROM rollout_queue',
  queueHas: 'SELECT 1 AS found FROM rollout_queue WHERE rollout_id = ? LIMIT 1',
  attemptById: 'SELECT data FROM attempts WHERE rollout_id = ? AND attempt_id = ?',
  latestAttempt:
    'SELECT data FROM attempts WHERE rollout_id = ? ORDER BY sequence_id DESC, pk DESC LIMIT 1',
  latestAttemptId:
    'SELECT attempt_id FROM attempts WHERE rollout_id = ? ORDER BY sequence_id DESC, pk DESC LIMIT 1',
  latestAttempts: `SELECT rollout_id, data FROM attempts WHERE pk IN (
    SELECT (SELECT a.pk FROM attempts a WHERE a.rollout_id = j.value ORDER BY a.sequence_id DESC, a.pk DESC LIMIT 1)
    FROM json_each(?) j)`,
  countAttempts: 'SELECT count(*) AS n FROM attempts WHERE rollout_id = ?',
  insertSpan: `${SPANS.insertSql}${SPAN_CONFLICT}`,
  addSpanTotals: 'UPDATE span_totals SET spans = spans + ?, bytes = bytes + ? WHERE id = 1',
  allocateSequence: `INSERT INTO span_sequences (rollout_id, last_id) VALUES (?, ?)
    ON CONFLICT (rollout_id) DO UPDATE SET last_id = last_id + excluded.last_id RETURNING last_id`,
  raiseSequence: `INSERT INTO span_sequences (rollout_id, last_id) VALUES (?, ?)
    ON CONFLICT (rollout_id) DO UPDATE SET last_id = excluded.last_id WHERE excluded.last_id > last_id`,
  resourcesById: 'SELECT data FROM resources WHERE resources_id = ?',
  latestResources: 'SELECT data FROM resources ORDER BY update_time DESC, write_seq DESC LIMIT 1',
  workerById: 'SELECT data FROM workers WHERE worker_id = ?',
  counts: `SELECT (SELECT count(*) FROM rollouts) AS rollouts, (SELECT count(*) FROM attempts) AS attempts,
    spans, bytes, (SELECT count(*) FROM resources) AS resources, (SELECT count(*) FROM workers) AS workers
    FROM span_totals WHERE id = 1`,
} as const;
