import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, StatementSync } from 'node:sqlite';
import { type RolloutStatus, type SortOrder, StoreError, ValidationError } from '@arclight/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rolloutQuery, spanQuery } from '../src/queries.js';
import {
  checkSqliteStartup,
  MIGRATIONS,
  SCHEMA_VERSION,
  SqliteBackend,
} from '../src/sqlite/index.js';
import { orderBy } from '../src/sqlite/query-builder.js';
import { ROLLOUTS } from '../src/sqlite/tables.js';
import { attempt, resources, rollout, span, worker } from './fixtures/records.js';

// What only SqliteBackend does; the StoreBackend contract runs in backend-contract.test.ts.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-sqlite-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteBackend queries', () => {
  it('names only whitelisted columns in SQL: an unknown sort_by is refused', () => {
    const backend = new SqliteBackend({ path: ':memory:' });
    try {
      backend.insertRollout(rollout('r1'));
      // Bypasses the public query builder, which would refuse the field first.
      const query = { ...rolloutQuery({}), sort_by: 'input' };
      expect(() => backend.queryRollouts(query)).toThrow(ValidationError);
      expect(() => backend.queryRollouts(query)).toThrow(/sort_by/);
      expect(() => backend.queryRollouts({ ...query, sort_by: 'pk; DROP TABLE rollouts' })).toThrow(
        /sort_by/,
      );
      expect(backend.getRollout('r1')).toEqual(rollout('r1'));
    } finally {
      backend.close();
    }
  });

  it('pages rollouts by start time from an index, without sorting the table for each page', () => {
    const path = join(dir, 'plan.db');
    new SqliteBackend({ path }).close();
    const raw = new DatabaseSync(path);
    try {
      const plan = (order: 'asc' | 'desc') =>
        raw
          .prepare(
            `EXPLAIN QUERY PLAN SELECT data FROM rollouts${orderBy(ROLLOUTS, 'start_time', order)} LIMIT 100 OFFSET 5000`,
          )
          .all()
          .map((row) => String(row.detail));
      expect(plan('asc')).toEqual(['SCAN rollouts USING INDEX rollouts_by_start_time']);
      // Descending, ties stay in insertion order: the index orders the times, SQLite sorts only within a tie.
      expect(plan('desc')).toEqual([
        'SCAN rollouts USING INDEX rollouts_by_start_time',
        'USE TEMP B-TREE FOR LAST TERM OF ORDER BY',
      ]);
    } finally {
      raw.close();
    }
  });

  it('pages rollouts of some statuses by start time from the (status, start time) index', () => {
    const path = join(dir, 'status-plan.db');
    const backend = new SqliteBackend({ path });
    const raw = new DatabaseSync(path);
    try {
      // The SQL of each page as the backend sends it, explained by a second connection.
      const plan = (status_in: RolloutStatus[], sort_order: SortOrder) => {
        let sent: { sql: string; params: unknown[] } | undefined;
        const all = StatementSync.prototype.all;
        const spy = vi.spyOn(StatementSync.prototype, 'all').mockImplementation(function (
          this: StatementSync,
          ...params
        ) {
          sent ??= { sql: this.sourceSQL, params };
          return all.apply(this, params);
        });
        backend.queryRollouts(
          rolloutQuery({ status_in, sort_by: 'start_time', sort_order, limit: 100, offset: 500 }),
        );
        spy.mockRestore();
        if (sent === undefined) throw new Error('queryRollouts read nothing');
        return (
          raw
            .prepare(`EXPLAIN QUERY PLAN ${sent.sql}`)
            .all(...(sent.params as SQLInputValue[]))
            .map((row) => String(row.detail))
            // SQLite 3.47 (Node 22.13) also builds a Bloom filter of the page's pks; 3.53 (Node 24) does not.
            .filter((line) => line !== 'CREATE BLOOM FILTER')
        );
      };
      // A page past the first (offset 500): the pks of its rows from the index alone (covering: no other row is
      // read), then those rows by pk, sorted (the last line: the page's 100 rows only).
      const pageRows = ['SEARCH rollouts USING INTEGER PRIMARY KEY (rowid=?)', 'LIST SUBQUERY 1'];
      const search = 'SEARCH rollouts USING COVERING INDEX rollouts_by_status_start (status=?)';
      const pageSort = 'USE TEMP B-TREE FOR ORDER BY';
      // One status: the index gives the order (SQLite sorts only within a tie when descending).
      expect(plan(['failed'], 'asc')).toEqual([...pageRows, search, pageSort]);
      expect(plan(['failed'], 'desc')).toEqual([
        ...pageRows,
        search,
        'USE TEMP B-TREE FOR LAST TERM OF ORDER BY',
        pageSort,
      ]);
      // Several: each status's first offset + limit rows come in order from the index; only those are sorted.
      const several = plan(['failed', 'running', 'queuing'], 'asc');
      expect(several.filter((line) => line === search)).toHaveLength(3);
      expect(several.filter((line) => line.startsWith('USE TEMP B-TREE'))).toEqual([
        'USE TEMP B-TREE FOR ORDER BY',
        pageSort,
      ]);
    } finally {
      raw.close();
      backend.close();
    }
  });

  it('keeps pages in start-time order when an update moves a rollout in time', () => {
    const backend = new SqliteBackend({ path: ':memory:' });
    try {
      backend.insertRollout(rollout('r1', { start_time: 1 }));
      backend.insertRollout(rollout('r2', { start_time: 2 }));
      backend.insertRollout(rollout('r3', { start_time: 2 }));
      backend.putRollout(rollout('r2', { status: 'running', start_time: 2 }));
      backend.putRollout(rollout('r1', { start_time: 3 }));
      const ids = (order: 'asc' | 'desc') =>
        backend
          .queryRollouts(rolloutQuery({ sort_by: 'start_time', sort_order: order }))
          .items.map((r) => r.rollout_id);
      expect(ids('asc')).toEqual(['r2', 'r3', 'r1']);
      expect(ids('desc')).toEqual(['r1', 'r2', 'r3']); // a tie keeps insertion order

      expect(backend.getRollout('r2')?.status).toBe('running');
    } finally {
      backend.close();
    }
  });
});

describe('SqliteBackend file', () => {
  it('gives everything back after reopening the file', () => {
    const path = join(dir, 'store.db');
    const first = new SqliteBackend({ path });
    first.insertRollout(rollout('r1', { status: 'running', input: { q: 'é ☃ 😀' } }));
    first.insertRollout(rollout('r2'));
    first.insertAttempt(attempt('r1', 'at-1', 1));
    first.insertAttempt(attempt('r1', 'at-2', 2, { status: 'running' }));
    first.insertSpans([
      span('r1', 'at-2', 's1', { sequence_id: 2 }),
      span('r1', 'at-2', 's2', { sequence_id: 1 }),
    ]);
    first.pushQueue(['r2', 'r1', 'r3']);
    first.popQueue();
    first.allocateSequenceIds('r1', 4);
    first.putResources(resources('res-a', 5));
    first.putResources(resources('res-b', 5));
    first.putWorker(worker('w1', { status: 'busy', current_rollout_id: 'r1' }));
    const before = first.counts();
    first.close();

    const second = new SqliteBackend({ path });
    try {
      expect(second.getRollout('r1')).toEqual(
        rollout('r1', { status: 'running', input: { q: 'é ☃ 😀' } }),
      );
      expect(second.getRollout('r2')).toEqual(rollout('r2'));
      expect(second.getLatestAttempt('r1')).toEqual(
        attempt('r1', 'at-2', 2, { status: 'running' }),
      );
      expect(second.querySpans(spanQuery('r1', { attempt_id: 'at-2' })).items).toEqual([
        span('r1', 'at-2', 's2', { sequence_id: 1 }),
        span('r1', 'at-2', 's1', { sequence_id: 2 }),
      ]);
      expect([second.popQueue(), second.popQueue(), second.popQueue()]).toEqual([
        'r1',
        'r3',
        undefined,
      ]);
      expect(second.allocateSequenceIds('r1', 1)).toBe(5);
      expect(second.getLatestResources()?.resources_id).toBe('res-b');
      expect(second.getWorker('w1')).toEqual(
        worker('w1', { status: 'busy', current_rollout_id: 'r1' }),
      );
      expect(second.counts()).toEqual(before);
    } finally {
      second.close();
    }
  });

  it('migrates a fresh file once and reopens it without migrating again', () => {
    const path = join(dir, 'store.db');
    new SqliteBackend({ path }).close();
    const reopened = new SqliteBackend({ path, synchronous: 'normal' });
    reopened.insertRollout(rollout('r'));
    reopened.close();

    const raw = new DatabaseSync(path);
    expect(raw.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    expect(raw.prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
    expect(raw.prepare('SELECT version, description FROM schema_migrations').all()).toEqual(
      MIGRATIONS.map(({ version, description }) => ({ version, description })),
    );
    raw.close();
  });

  it('migrates a version-1 file to the current schema, keeping its records; read-only opens it as it is', () => {
    const path = join(dir, 'v1.db');
    const old = new DatabaseSync(path);
    MIGRATIONS[0]!.up(old);
    old.exec('PRAGMA user_version = 1');
    old.close();
    const writer = new SqliteBackend({ path });
    writer.insertRollout(rollout('r'));
    writer.insertSpans([span('r', 'a', 's1'), span('r', 'a', 's2', { sequence_id: 2 })]);
    writer.close();
    // Put the file back to version 1 (with its index) to open it read-only as an older Arclight left it.
    const raw = new DatabaseSync(path);
    raw.exec('CREATE INDEX spans_by_sequence ON spans (rollout_id, attempt_id, sequence_id)');
    raw.exec('DROP INDEX rollouts_by_start_time');
    raw.exec('DELETE FROM schema_migrations WHERE version > 1');
    raw.exec('PRAGMA user_version = 1');
    raw.close();

    expect(() => checkSqliteStartup(path, { readOnly: true })).not.toThrow();
    const reader = new SqliteBackend({ path, readOnly: true });
    expect(reader.querySpans(spanQuery('r', {})).items.map((s) => s.span_id)).toEqual(['s1', 's2']);
    reader.close();

    const migrated = new SqliteBackend({ path });
    expect(migrated.querySpans(spanQuery('r', {})).total).toBe(2);
    migrated.close();
    const check = new DatabaseSync(path);
    expect(check.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    const indexes = check
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'spans'")
      .all()
      .map((row) => row.name);
    expect(indexes).not.toContain('spans_by_sequence');
    expect(indexes.length).toBeGreaterThan(0); // the UNIQUE index that serves span queries stays
    const rolloutIndexes = check
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rollouts'")
      .all()
      .map((row) => row.name);
    expect(rolloutIndexes).toContain('rollouts_by_start_time');
    expect(rolloutIndexes).toContain('rollouts_by_status_start');
    expect(rolloutIndexes).not.toContain('rollouts_by_status');
    check.close();
  });

  it('refuses a database written by a newer schema version and leaves it untouched', () => {
    const path = join(dir, 'newer.db');
    new SqliteBackend({ path }).close();
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => new SqliteBackend({ path })).toThrow(StoreError);
    expect(() => new SqliteBackend({ path })).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}.*newer Arclight`),
    );
    const check = new DatabaseSync(path);
    expect(check.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('rejects bad options', () => {
    expect(() => new SqliteBackend({ path: '' })).toThrow(/path/);
    expect(() => new SqliteBackend({ path: ':memory:', synchronous: 'off' as 'full' })).toThrow(
      /synchronous/,
    );
    expect(() => new SqliteBackend({ path: join(dir, 'missing', 'x.db') })).toThrow(StoreError);
  });
});
