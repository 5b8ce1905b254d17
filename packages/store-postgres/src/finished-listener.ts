import { type ArmedWait, RolloutWaiters } from '@arclight/store';
import pg from 'pg';

/** The channel on which transactions announce rollouts that reached a terminal status. */
export const FINISHED_CHANNEL = 'arclight_rollouts_finished';

/** NOTIFY payloads are limited to 8000 bytes; ids are sent in chunks well below that. */
const PAYLOAD_BUDGET = 7000;

/** `pg_notify` payloads for `ids` finished in `schema`: "schema id id …". */
export function finishedPayloads(schema: string, ids: readonly string[]): string[] {
  const payloads: string[] = [];
  let current = schema;
  for (const id of ids) {
    if (current.length + id.length + 1 > PAYLOAD_BUDGET && current !== schema) {
      payloads.push(current);
      current = schema;
    }
    current += ` ${id}`;
  }
  if (current !== schema) payloads.push(current);
  return payloads;
}

/**
 * Wake-ups for `waitForRollouts`. A waiter sleeps until one of its rollouts is announced finished — by a
 * commit in this process (`notify`) or, through PostgreSQL `LISTEN`, by any other process — or until its
 * deadline, or at most `recheckMs` (a slow safety net: the watchdog's transitions only happen when some
 * process scans, and a dropped LISTEN connection must not leave a waiter asleep forever).
 * The LISTEN connection is opened on the first wait and reopened after an error.
 */
export class FinishedListener {
  private readonly waiters: RolloutWaiters;
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly schema: string,
    recheckMs: number,
  ) {
    this.waiters = new RolloutWaiters(recheckMs);
  }

  /** Makes sure LISTEN is active; resolves once notifications from now on will be delivered. */
  listen(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('error', () => {
      // The connection broke: drop it; the next wait reconnects, and current waiters recheck on their timer.
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
    });
    client.on('notification', (message) => {
      if (message.channel !== FINISHED_CHANNEL || !message.payload) return;
      const [schema, ...ids] = message.payload.split(' ');
      if (schema === this.schema) this.notify(ids);
    });
    await client.connect();
    await client.query(`LISTEN ${FINISHED_CHANNEL}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  /** Registers interest in `rolloutIds` now and returns the handle to sleep on (see `RolloutWaiters.arm`). */
  arm(rolloutIds: readonly string[]): ArmedWait {
    return this.waiters.arm(rolloutIds);
  }

  /** Wakes the waiters of any of `finishedIds`. */
  notify(finishedIds: readonly string[]): void {
    this.waiters.notify(finishedIds);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiters.close();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
