import type { Rollout } from '@arclight/core';
import { expect } from 'vitest';
import type { StoreBackend } from '../../src/backend.js';
import type { QueryRolloutsParams } from '../../src/lightning-store.js';
import { rolloutQuery } from '../../src/queries.js';
import { rolloutIds } from '../fixtures/records.js';

/** Registers a group of contract cases; `backend()` is a fresh, open backend in each case. */
export type ContractCases = (backend: () => StoreBackend) => void;

export class Boom extends Error {}

/** Runs `fn` in a transaction that then throws; asserts the error propagates unchanged. */
export function rollBack(backend: StoreBackend, fn: () => void): void {
  const error = new Boom('rollback');
  expect(() =>
    backend.transaction(() => {
      fn();
      throw error;
    }),
  ).toThrow(error);
}

/** Inserts the rollouts in order; returns a query of their ids. */
export function withRollouts(
  b: StoreBackend,
  rollouts: Rollout[],
): (params: QueryRolloutsParams) => string[] {
  for (const r of rollouts) b.insertRollout(r);
  return (params) => rolloutIds(b.queryRollouts(rolloutQuery(params)).items);
}
