import type { CaseGroup } from '../target.js';
import { attemptCases } from './attempts.js';
import { concurrencyCases } from './concurrency.js';
import { queryCases } from './queries.js';
import { queueCases } from './queue.js';
import { resourceCases } from './resources.js';
import { revivalCases } from './revival.js';
import { rolloutCases } from './rollouts.js';
import { spanQueryCases } from './span-queries.js';
import { spanCases } from './spans.js';
import { statusCases } from './status.js';
import { storeCases } from './store.js';
import { updateCases } from './updates.js';
import { validationCases } from './validation.js';
import { waitCases } from './wait.js';
import { watchdogCases } from './watchdog.js';
import { workerCases } from './workers.js';

/** Every case group, in registration order. */
export const CASE_GROUPS: readonly CaseGroup[] = [
  storeCases,
  rolloutCases,
  queueCases,
  attemptCases,
  statusCases,
  revivalCases,
  watchdogCases,
  workerCases,
  spanCases,
  spanQueryCases,
  queryCases,
  resourceCases,
  updateCases,
  waitCases,
  validationCases,
  concurrencyCases,
];
