import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../http/errors.js';
import { Fields } from '../http/fields.js';
import { readEnqueueRequest } from '../http/models.js';
import { API_AGL, type RouteContext } from './context.js';

/** `POST /queues/rollouts/enqueue` and `POST /queues/rollouts/dequeue`. */
export function registerQueueRoutes(app: FastifyInstance, { store, limits }: RouteContext): void {
  app.post(`${API_AGL}/queues/rollouts/enqueue`, async (request, reply) => {
    const body = Fields.body(request.body);
    const list = body.required('rollouts');
    if (!Array.isArray(list)) throw unprocessable('body.rollouts: Input should be a valid list');
    const requests = list.map((item, i) => readEnqueueRequest(item, `body.rollouts.${i}`));
    if (requests.length === 0) return reply.code(201).send([]);
    if (requests.length === 1) {
      return reply.code(201).send([await store.enqueueRollout(requests[0]!)]);
    }
    return reply.code(201).send(await store.enqueueManyRollouts(requests));
  });

  app.post(`${API_AGL}/queues/rollouts/dequeue`, async (request) => {
    const body = Fields.body(request.body, true);
    // "Up to `limit`": a larger ask gets at most one answer's worth (limits.maxItemsPerResponse); the rest stay queued.
    const limit = Math.min(body.intOr('limit', 1), limits.maxItemsPerResponse);
    const workerId = body.string('worker_id') ?? null;
    if (limit <= 0) return [];
    if (limit === 1) {
      const rollout = await store.dequeueRollout({ worker_id: workerId });
      return rollout ? [rollout] : [];
    }
    return store.dequeueManyRollouts({ limit, worker_id: workerId });
  });
}
