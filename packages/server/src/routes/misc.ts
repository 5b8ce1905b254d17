import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../http/errors.js';
import { Fields } from '../http/fields.js';
import { API_AGL, type RouteContext } from './context.js';

/** Health, statistics and `waits/rollouts`. */
export function registerMiscRoutes(app: FastifyInstance, { store, closing }: RouteContext): void {
  app.get(`${API_AGL}/health`, async () => ({ status: 'ok' }));

  app.get(`${API_AGL}/statistics`, async () => store.statistics());

  app.post(`${API_AGL}/waits/rollouts`, async (request) => {
    const body = Fields.body(request.body);
    body.required('rollout_ids');
    const rolloutIds = body.stringList('rollout_ids');
    if (rolloutIds == null) throw unprocessable('body.rollout_ids: Input should be a valid list');
    const timeout = body.number('timeout') ?? null;
    const waiting = store.waitForRollouts({ rollout_ids: rolloutIds, timeout });
    if (timeout !== null && timeout <= 0) return waiting;
    // On shutdown, answer with what has finished so far instead of holding the close open.
    let answered = false;
    const early = closing.then(() =>
      answered ? [] : store.waitForRollouts({ rollout_ids: rolloutIds, timeout: 0 }),
    );
    // Whichever promise loses the race may still settle later; its outcome is irrelevant then.
    waiting.catch(() => undefined);
    early.catch(() => undefined);
    try {
      return await Promise.race([waiting, early]);
    } finally {
      answered = true;
    }
  });
}
