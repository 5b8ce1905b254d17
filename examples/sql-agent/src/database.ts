import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';

export type Row = SQLOutputValue[];

/** The outcome of running one query: its rows, or the error SQLite reported. */
export type QueryOutcome = { ok: true; rows: Row[] } | { ok: false; error: string };

/**
 * A read-only SQLite database (`node:sqlite`): the agent's view of the schema, query execution for the
 * `execute_query` node, and the result sets the reward compares.
 */
export class SqlDatabase {
  readonly dialect = 'sqlite';
  private readonly db: DatabaseSync;

  constructor(path: string) {
    this.db = new DatabaseSync(path, { readOnly: true });
  }

  /** One `CREATE TABLE name (column TYPE, …)` line per table: compact enough to fit a prompt whole. */
  tableInfo(): string {
    const tables = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as { name: string }[];
    return tables
      .map(({ name }) => {
        const columns = this.db.prepare(`PRAGMA table_info(${quoteIdentifier(name)})`).all() as {
          name: string;
          type: string;
        }[];
        return `CREATE TABLE ${name} (${columns.map((c) => `${c.name} ${c.type}`).join(', ')})`;
      })
      .join('\n');
  }

  run(sql: string): QueryOutcome {
    try {
      return {
        ok: true,
        rows: this.db
          .prepare(sql)
          .all()
          .map((row) => Object.values(row)),
      };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {
    this.db.close();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** How the agent sees an execution: rows as JSON arrays, one per line (truncated), or `Error: …`. */
export function formatOutcome(outcome: QueryOutcome, maxLength = 2048): string {
  if (!outcome.ok) return `Error: ${outcome.error}`;
  if (outcome.rows.length === 0) return '(no rows)';
  const text = outcome.rows.map((row) => JSON.stringify(row)).join('\n');
  return text.length > maxLength ? `${text.slice(0, maxLength)}\n... (truncated)` : text;
}

/** Whether two result sets hold the same rows (as multisets: row order does not matter). */
export function sameResultSet(a: Row[], b: Row[]): boolean {
  if (a.length !== b.length) return false;
  const key = (rows: Row[]) => rows.map((row) => JSON.stringify(row, bigintAsText)).sort();
  const left = key(a);
  const right = key(b);
  return left.every((row, i) => row === right[i]);
}

function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
