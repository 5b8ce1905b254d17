import { InMemoryLightningStore, type LightningStore } from '@arclight/store';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import {
  createLightningStoreServer,
  type LightningStoreServer,
  type LightningStoreServerOptions,
} from '../src/index.js';

export interface Harness {
  store: LightningStore;
  server: LightningStoreServer;
  /** `app.inject` with JSON bodies; returns status, parsed JSON body and headers. */
  call(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected structurally
  json: any;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A server (not listening) over a fresh in-memory store, closed after the test. */
export async function harness(
  options: LightningStoreServerOptions = {},
  store: LightningStore = new InMemoryLightningStore(),
): Promise<Harness> {
  const server = createLightningStoreServer(store, { port: 0, ...options });
  await server.app.ready();
  cleanups.push(async () => {
    await server.close();
    await store.close();
  });
  const call: Harness['call'] = async (method, url, body, headers = {}) => {
    const raw = await server.app.inject({
      method,
      url,
      ...(body === undefined
        ? { headers }
        : {
            payload: JSON.stringify(body),
            headers: { 'content-type': 'application/json', ...headers },
          }),
    });
    let json: unknown;
    try {
      json = raw.body === '' ? undefined : JSON.parse(raw.body);
    } catch {
      json = raw.body;
    }
    return { status: raw.statusCode, json, headers: raw.headers, raw };
  };
  return { store, server, call };
}

/** A listening server over `store`, closed after the test. */
export async function listening(
  options: LightningStoreServerOptions = {},
  store: LightningStore = new InMemoryLightningStore(),
): Promise<{ url: string; store: LightningStore; server: LightningStoreServer }> {
  const server = createLightningStoreServer(store, { port: 0, ...options });
  const url = await server.listen();
  cleanups.push(async () => {
    await server.close();
    await store.close();
  });
  return { url, store, server };
}

export function span(
  rolloutId: string,
  attemptId: string,
  overrides: Record<string, unknown> = {},
) {
  const spanId = (overrides.span_id as string | undefined) ?? '00000000000000a1';
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: 1,
    trace_id: '0000000000000000000000000000abcd',
    span_id: spanId,
    parent_id: null,
    name: 'agentlightning.annotation',
    status: { status_code: 'OK', description: null },
    attributes: { 'agentlightning.reward.0.value': 1.0 },
    events: [],
    links: [],
    start_time: 1734000001.5,
    end_time: 1734000001.5,
    context: {
      trace_id: '0000000000000000000000000000abcd',
      span_id: spanId,
      is_remote: false,
      trace_state: {},
    },
    parent: null,
    resource: { attributes: {}, schema_url: '' },
    ...overrides,
  };
}
