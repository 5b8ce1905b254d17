import { resolve } from 'node:path';
import {
  checkSqliteStartup,
  InMemoryLightningStore,
  type LightningStore,
  SqliteLightningStore,
} from '@arclight/store';

export const BACKENDS = ['memory', 'sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface BackendOptions {
  backend: Backend;
  db: string;
  databaseUrl?: string;
  schema: string;
  /** Serve the SQLite file read-only (writes answer 405). */
  readOnly?: boolean;
  /** Memory backend: cap on estimated span bytes. */
  memoryCap?: number;
  /** Memory backend: cap on the number of spans. */
  memorySpanCap?: number;
}

/** The URL without its password, for messages. */
export const redactUrl = (url: string): string => url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');

/** Opens the store the options name; the description is printed next to the listening address. */
export async function openStore(
  options: BackendOptions,
): Promise<{ store: LightningStore; description: string }> {
  if (options.readOnly && options.backend !== 'sqlite') {
    throw new Error('--read-only applies to the sqlite backend only');
  }
  if (options.backend === 'memory') {
    const cap = [
      options.memoryCap !== undefined ? `${options.memoryCap} bytes` : '',
      options.memorySpanCap !== undefined ? `${options.memorySpanCap} spans` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return {
      store: new InMemoryLightningStore({
        maxSpanBytes: options.memoryCap,
        maxSpans: options.memorySpanCap,
      }),
      description: cap ? `backend: memory, cap: ${cap}` : 'backend: memory',
    };
  }
  if (options.backend === 'postgres') {
    if (!options.databaseUrl) {
      throw new Error(
        'the postgres backend needs --database-url postgres://user:password@host:5432/database ' +
          '(or ARCLIGHT_DATABASE_URL)',
      );
    }
    // Loaded only for this backend, so that memory/SQLite users never load the PostgreSQL driver.
    const { PostgresLightningStore } = await import('@arclight/store-postgres');
    const store = await PostgresLightningStore.open({
      connectionString: options.databaseUrl,
      schema: options.schema,
    });
    return {
      store,
      description: `backend: postgres, database: ${redactUrl(options.databaseUrl)}, schema: ${options.schema}`,
    };
  }
  const path = resolve(options.db);
  // Refuse a broken file (truncated, corrupt, unwritable, unknown schema) before serving it.
  checkSqliteStartup(path, { readOnly: options.readOnly });
  return {
    store: new SqliteLightningStore({ path, readOnly: options.readOnly }),
    description: `backend: sqlite, db: ${path}${options.readOnly ? ', read-only' : ''}`,
  };
}
