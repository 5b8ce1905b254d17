import { StoreError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { finishedPayloads } from '../src/finished-listener.js';
import { PostgresLightningStore } from '../src/index.js';
import { redact } from '../src/postgres-store.js';

describe('PostgresLightningStore.open: bad options fail at once, naming what is wrong', () => {
  it('requires a connection string', async () => {
    await expect(PostgresLightningStore.open({ connectionString: '' })).rejects.toThrow(
      /connectionString is required/,
    );
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(
      PostgresLightningStore.open({
        connectionString: 'postgres://u:p@127.0.0.1:1/db',
        schema: 'a;drop',
      }),
    ).rejects.toThrow(/schema "a;drop" must be 1-63 letters/);
  });

  it('reports an unreachable server with the URL (password hidden)', async () => {
    const error = await PostgresLightningStore.open({
      connectionString: 'postgres://user:secret@127.0.0.1:1/db',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(
      /cannot open postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/db/,
    );
    expect((error as Error).message).not.toContain('secret');
  });
});

describe('finished notifications', () => {
  it('carry the schema and the ids, split below the NOTIFY payload limit', () => {
    expect(finishedPayloads('s', [])).toEqual([]);
    expect(finishedPayloads('s', ['ro-1', 'ro-2'])).toEqual(['s ro-1 ro-2']);
    const ids = Array.from({ length: 2000 }, (_, i) => `ro-${String(i).padStart(12, '0')}`);
    const payloads = finishedPayloads('schema', ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) {
      expect(Buffer.byteLength(payload)).toBeLessThan(8000);
      expect(payload.startsWith('schema ')).toBe(true);
    }
    expect(payloads.flatMap((p) => p.split(' ').slice(1))).toEqual(ids);
  });

  it('redact hides only the password', () => {
    expect(redact('postgres://a:b@h:5432/d')).toBe('postgres://a:***@h:5432/d');
    expect(redact('postgres://h/d')).toBe('postgres://h/d');
  });
});
