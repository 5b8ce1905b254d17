import { afterEach, beforeEach, describe, it } from 'vitest';
import type { LightningStore } from '../lightning-store.js';
import { CASE_GROUPS } from './cases/index.js';
import { FakeClock } from './fake-clock.js';
import type { ConformanceCase, ConformanceTarget } from './target.js';

const ALL_CASES: readonly ConformanceCase[] = CASE_GROUPS.flatMap((group) => group.cases);

/** Ids of all conformance cases. */
export const CONFORMANCE_CASES: readonly string[] = ALL_CASES.map((c) => c.id);

/**
 * Ids of the cases that assert exact clock values or need the injected clock to drive the watchdog.
 * A target whose store cannot use the given clock (e.g. a remote server) can exclude these.
 */
export const CLOCK_DEPENDENT_CASES: readonly string[] = ALL_CASES.filter((c) => c.clock).map(
  (c) => c.id,
);

const duplicates = CONFORMANCE_CASES.filter((id, i) => CONFORMANCE_CASES.indexOf(id) !== i);
if (duplicates.length > 0)
  throw new Error(`duplicate conformance case ids: ${duplicates.join(', ')}`);

/**
 * Registers the LightningStore conformance suite (vitest `describe`/`it` blocks) for `target`.
 * Each case runs against a fresh store that is closed afterwards. Excluded cases are not registered;
 * excluding an unknown id throws.
 */
export function describeLightningStoreConformance(target: ConformanceTarget): void {
  const excluded = new Set(target.exclude ?? []);
  const unknown = [...excluded].filter((id) => !CONFORMANCE_CASES.includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `${target.name}: unknown conformance case ids in exclude: ${unknown.join(', ')}`,
    );
  }
  const typedErrors = target.typedErrors !== false;

  describe(`LightningStore conformance: ${target.name}`, () => {
    let open: LightningStore[] = [];

    beforeEach(() => {
      open = [];
    });

    afterEach(async () => {
      const stores = open;
      open = [];
      await Promise.all(stores.map((store) => store.close()));
    });

    for (const group of CASE_GROUPS) {
      const cases = group.cases.filter((c) => !excluded.has(c.id));
      if (cases.length === 0) continue;
      describe(group.name, () => {
        for (const testCase of cases) {
          it(`${testCase.id}: ${testCase.title}`, { timeout: testCase.timeoutMs }, async () => {
            const clock = new FakeClock();
            const store = await target.create({
              clock: () => clock.now(),
              scanDebounceSeconds: testCase.scanDebounceSeconds ?? 0,
            });
            open.push(store);
            await testCase.run({ store, clock, typedErrors });
          });
        }
      });
    }
  });
}
