import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { findRepoRoot } from '../recordings.js';

/**
 * A real PostgreSQL server for tests. `ARCLIGHT_POSTGRES_URL` (exported by `.ci/run`) names it; without it,
 * `scripts/postgres.sh` is run to install/start the project's throwaway server and print its URL. When no
 * server can be reached the error says so and how to fix it — tests never fall back to a fake.
 */
export function postgresServerUrl(): string {
  const fromEnv = process.env.ARCLIGHT_POSTGRES_URL;
  if (fromEnv) return fromEnv;
  const root = findRepoRoot();
  const script = root ? join(root, 'scripts/postgres.sh') : undefined;
  try {
    if (!script) throw new Error('the repository root (with scripts/postgres.sh) was not found');
    const url = execFileSync('bash', [script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15 * 60_000,
    }).trim();
    process.env.ARCLIGHT_POSTGRES_URL = url;
    return url;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(
      `no PostgreSQL server for the tests: ARCLIGHT_POSTGRES_URL is not set and scripts/postgres.sh failed ` +
        `(${detail}). Start one with \`export ARCLIGHT_POSTGRES_URL=$(scripts/postgres.sh)\` or point ` +
        'ARCLIGHT_POSTGRES_URL at a server where the user may CREATE DATABASE.',
    );
  }
}

export interface TestDatabase {
  /** Connection URL of the fresh, empty database. */
  url: string;
  name: string;
  /** Drops the database (disconnecting anyone still connected). */
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot connect to the test PostgreSQL at ${serverUrl.replace(/:[^:@/]*@/, ':***@')}: ` +
        `${(error as Error).message}. Is it running? (scripts/postgres.sh starts it)`,
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestDatabaseOptions {
  /**
   * Keep PostgreSQL's default `synchronous_commit = on` (each commit waits for its WAL flush). By default a
   * test database sets it off: commits are still atomic and survive a crash of any client process (which
   * is what the tests kill), only a crash of the PostgreSQL server itself could lose the last moments.
   */
  durable?: boolean;
}

/** Creates a throwaway database (one per test file); call `drop()` in `afterAll`. */
export async function createTestDatabase(
  label = 'test',
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const serverUrl = postgresServerUrl();
  const name = `arclight_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await admin(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE "${name}"`);
    if (!options.durable)
      await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () =>
      admin(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}
