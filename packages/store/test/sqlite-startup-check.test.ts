import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSqliteStartup, SqliteLightningStore } from '../src/index.js';
import { SCHEMA_VERSION } from '../src/sqlite/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arclight-startup-'));
  dirs.push(dir);
  return join(dir, 'store.sqlite');
}

/** A real store file with enough rollouts to span many pages. */
async function populated(): Promise<string> {
  const path = tempDb();
  const store = new SqliteLightningStore({ path });
  for (let i = 0; i < 200; i++) await store.enqueueRollout({ input: { i, text: 'x'.repeat(200) } });
  await store.close();
  expect(existsSync(`${path}-wal`)).toBe(false); // checkpointed into the main file on close
  return path;
}

describe('checkSqliteStartup', () => {
  it('accepts a missing file (it will be created) and a healthy store', async () => {
    expect(() => checkSqliteStartup(tempDb())).not.toThrow();
    const path = await populated();
    expect(() => checkSqliteStartup(path)).not.toThrow();
    expect(() => checkSqliteStartup(path, { readOnly: true })).not.toThrow();
  });

  it('refuses a file truncated to 0 bytes instead of serving an empty store', () => {
    const path = tempDb();
    writeFileSync(path, '');
    expect(() => checkSqliteStartup(path)).toThrow(/is empty \(0 bytes\).*truncated/);
  });

  it('refuses a file whose pages were zeroed behind an intact header', async () => {
    const path = await populated();
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(8 * 4096);
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(size - 4096), 0, size - 4096, 4096);
    closeSync(fd);
    expect(() => checkSqliteStartup(path)).toThrow(
      /is corrupt (\(PRAGMA quick_check: |or not a SQLite database: database disk image is malformed)/,
    );
  });

  it('refuses a file that is not a SQLite database', () => {
    const path = tempDb();
    writeFileSync(path, 'hello, this is not a database'.repeat(200));
    expect(() => checkSqliteStartup(path)).toThrow(
      /is corrupt or not a SQLite database: file is not a database/,
    );
  });

  it('refuses a SQLite database of another application, and a newer schema', () => {
    const foreign = tempDb();
    const db = new DatabaseSync(foreign);
    db.exec('CREATE TABLE invoices (id INTEGER)');
    db.close();
    expect(() => checkSqliteStartup(foreign)).toThrow(
      /not an Arclight store \(it has tables invoices/,
    );

    const newer = tempDb();
    const db2 = new DatabaseSync(newer);
    db2.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db2.close();
    expect(() => checkSqliteStartup(newer)).toThrow(`has schema version ${SCHEMA_VERSION + 1}`);
  });

  it('read-only mode needs an existing, current store', () => {
    expect(() => checkSqliteStartup(tempDb(), { readOnly: true })).toThrow('does not exist');
  });

  it('a read-only store serves reads and refuses writes', async () => {
    const path = await populated();
    const store = new SqliteLightningStore({ path, readOnly: true });
    try {
      expect((await store.queryRollouts({ limit: 1 })).total).toBe(200);
      await expect(store.enqueueRollout({ input: 1 })).rejects.toThrow(/readonly|read-only/i);
    } finally {
      await store.close();
    }
  });
});
