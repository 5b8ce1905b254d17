// The two measured workloads, run through @arclight/client against any server URL.
import { Agent, request as httpRequest } from 'node:http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { encodeSpansAsOtlp, LightningStoreClient } from '../../client/dist/index.js';
import { makeSpans } from './spans.mjs';

/** No retries: a failing request should fail the measurement, not hide in a retry delay. */
const CLIENT_OPTIONS = { retryDelays: [], healthRetryDelays: [] };
const SPANS_PER_LIFECYCLE = 10;
const WARMUP_LIFECYCLES = 50;
const ENQUEUE_CHUNK = 500;

/** The monotonic clock in microseconds: the clock of V8's CPU profiles, so a server's profile can be cut to `window`. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Client options of the lifecycle workers. `ARCLIGHT_BENCH_V0_ROUTES=1` keeps our client on the v0.x routes
 * (no runner-cycle extension), for the figure of a lifecycle in three requests against our server too.
 */
const LIFECYCLE_CLIENT_OPTIONS = {
  ...CLIENT_OPTIONS,
  extensions: process.env.ARCLIGHT_BENCH_V0_ROUTES !== '1',
};

/**
 * Rollout lifecycles, as our Runner (packages/runner) drives them: the queue is pre-filled through the batch
 * enqueue route, then `concurrency` workers (one client each) loop runnerCycle (previous attempt succeeded +
 * dequeue) → 10 spans until `lifecycles` were finished or `seconds` passed; a last runnerCycle finishes the
 * final attempt. Against a server with Arclight's runner-cycle extension the turn is one request
 * (`POST /v1/agl/x-arclight/runner/cycle`); against upstream the client falls back to the v0.x routes
 * (attempt update, then dequeue: two requests). `spanPath`: 'otlp' = one addManySpans batch (POST /v1/traces),
 * 'rest' = 10 × addSpan (POST /v1/agl/spans); `onWindow('start' | 'end')`, if given, is awaited around the
 * measured part. Returns { rate, completed, seconds, notes, window, requestsPerLifecycle } (`window`: the
 * measured part on the monotonic clock, in µs).
 */
export async function runLifecycles(url, { concurrency, lifecycles, seconds, spanPath, onWindow }) {
  const clients = Array.from(
    { length: concurrency },
    () => new LightningStoreClient(url, LIFECYCLE_CLIENT_OPTIONS),
  );
  const admin = clients[0];
  await prefill(admin, WARMUP_LIFECYCLES + lifecycles);
  await drive(clients, WARMUP_LIFECYCLES, Number.POSITIVE_INFINITY, spanPath);

  await onWindow?.('start');
  const window = { start: monotonicMicros() };
  const t0 = performance.now();
  const run = await drive(clients, lifecycles, t0 + seconds * 1000, spanPath);
  const elapsed = (performance.now() - t0) / 1000;
  window.end = monotonicMicros();
  await onWindow?.('end');

  const notes = [];
  if (run.emptied) notes.push('queue ran dry before the count was reached');
  const done = await admin.queryRollouts({ status_in: ['succeeded'], limit: 1 });
  const expected = WARMUP_LIFECYCLES + run.completed;
  if (done.total !== expected) notes.push(`${done.total} succeeded rollouts, expected ${expected}`);
  if (run.last) {
    const spans = await admin.querySpans(run.last, { limit: 1 });
    if (spans.total !== SPANS_PER_LIFECYCLE) {
      notes.push(`rollout ${run.last} has ${spans.total} spans, expected ${SPANS_PER_LIFECYCLE}`);
    }
  }
  await Promise.all(clients.map((client) => client.close()));
  const requestsPerLifecycle = run.completed > 0 ? run.requests / run.completed : 0;
  const route = run.extension ? 'runner-cycle extension' : 'v0.x routes';
  notes.push(`${requestsPerLifecycle.toFixed(2)} requests per lifecycle (${route})`);
  return {
    rate: run.completed / elapsed,
    completed: run.completed,
    seconds: elapsed,
    notes,
    window,
    requestsPerLifecycle,
  };
}

async function prefill(client, count) {
  for (let done = 0; done < count; done += ENQUEUE_CHUNK) {
    const size = Math.min(ENQUEUE_CHUNK, count - done);
    const batch = Array.from({ length: size }, (_, i) => ({ input: { task: done + i } }));
    await client.enqueueManyRollouts(batch);
  }
}

/** Counts requests as sent: a runnerCycle is one request with the extension, else one per store call. */
async function drive(clients, total, deadline, spanPath) {
  const state = {
    claimed: 0,
    completed: 0,
    requests: 0,
    emptied: false,
    extension: false,
    last: undefined,
  };
  const cycle = async (client, params) => {
    const turn = await client.runnerCycle(params);
    state.extension = turn.extension;
    state.requests += turn.extension
      ? 1
      : (params.finish ? 1 : 0) + (params.dequeue === false ? 0 : 1);
    if (turn.finishError) throw turn.finishError;
    if (params.finish) {
      state.completed++;
      state.last = params.finish.rollout_id;
    }
    return turn;
  };
  const worker = async (client, index) => {
    const workerId = `bench-worker-${index}`;
    let finish = null;
    while (state.claimed < total && performance.now() < deadline) {
      state.claimed++;
      const { rollout } = await cycle(client, { worker_id: workerId, finish });
      finish = null;
      if (!rollout) {
        state.emptied = true;
        return;
      }
      const { rollout_id: rolloutId } = rollout;
      const { attempt_id: attemptId } = rollout.attempt;
      const spans = makeSpans(rolloutId, attemptId, SPANS_PER_LIFECYCLE);
      if (spanPath === 'otlp') {
        await client.addManySpans(spans);
        state.requests++;
      } else {
        for (const span of spans) await client.addSpan(span);
        state.requests += spans.length;
      }
      finish = { rollout_id: rolloutId, attempt_id: attemptId, status: 'succeeded' };
    }
    if (finish) await cycle(client, { worker_id: workerId, finish, dequeue: false });
  };
  await Promise.all(clients.map(worker));
  return state;
}

/**
 * OTLP ingest: `requests` ExportTraceServiceRequests of `batch` spans each, encoded up front with the
 * client's encoder (spread over 16 running attempts), POSTed to /v1/traces by `senders` concurrent loops
 * until all are sent or `seconds` passed. Returns { rate (spans/s), completed (spans), seconds, notes, window }.
 */
export async function runOtlpIngest(url, { senders, requests, batch, seconds, onWindow }) {
  const admin = new LightningStoreClient(url, CLIENT_OPTIONS);
  const attempts = [];
  for (let i = 0; i < 16; i++) {
    const rollout = await admin.startRollout({ input: { ingest: i } });
    attempts.push({ rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id, seq: 1 });
  }
  const warmup = senders * 2;
  const bodies = Array.from({ length: warmup + requests }, (_, k) => {
    const target = attempts[k % attempts.length];
    const spans = makeSpans(target.rolloutId, target.attemptId, batch, target.seq);
    target.seq += batch;
    return encodeSpansAsOtlp(spans);
  });

  // Senders use node:http on a keep-alive agent (one socket each), as the runner client does: `fetch` costs
  // the sending process 2-3x the CPU per request, and it shares the machine's cores with the server.
  const endpoint = new URL(`${url}/v1/traces`);
  const agent = new Agent({ keepAlive: true, maxSockets: senders });
  const state = { next: 0, sent: 0, rejected: 0 };
  const sender = async (last, deadline) => {
    while (state.next < last && performance.now() < deadline) {
      const body = bodies[state.next++];
      const { status, answer } = await post(endpoint, agent, body, 'application/x-protobuf');
      if (status !== 200) throw new Error(`POST /v1/traces → ${status}`);
      if (answer.length > 0) {
        const partial = ProtobufTraceSerializer.deserializeResponse(answer).partialSuccess;
        state.rejected += Number(partial?.rejectedSpans ?? 0);
      }
      state.sent += batch;
    }
  };
  const sendAll = (last, deadline) =>
    Promise.all(Array.from({ length: senders }, () => sender(last, deadline)));

  await sendAll(warmup, Number.POSITIVE_INFINITY);
  const sentBefore = state.sent;
  await onWindow?.('start');
  const window = { start: monotonicMicros() };
  const t0 = performance.now();
  await sendAll(bodies.length, t0 + seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  window.end = monotonicMicros();
  await onWindow?.('end');
  const completed = state.sent - sentBefore;

  const notes = [];
  if (state.rejected > 0) notes.push(`server rejected ${state.rejected} spans`);
  let stored = 0;
  for (const { rolloutId } of attempts) {
    stored += (await admin.querySpans(rolloutId, { limit: 1 })).total;
  }
  if (stored !== state.sent) notes.push(`${stored} spans stored, ${state.sent} sent`);
  await admin.close();
  agent.destroy();
  return { rate: completed / elapsed, completed, seconds: elapsed, notes, window };
}

/**
 * The transport's ceiling for a lifecycle (the `ceiling` target: a bare node:http server with a fixed answer):
 * `concurrency` loops send a lifecycle's requests one after another — the runner-cycle JSON, then the spans (one
 * protobuf body for 'otlp', 10 JSON bodies for 'rest'), all encoded up front — over node:http keep-alive, one
 * socket each. Lifecycles/s here bound what any store behind a Node server can reach with this request pattern
 * on this machine. Same result shape as runLifecycles.
 */
export async function runRoundTrips(url, { concurrency, lifecycles, seconds, spanPath }) {
  const spans = makeSpans('ro-ceiling', 'at-ceiling', SPANS_PER_LIFECYCLE);
  const cycle = {
    body: Buffer.from(
      JSON.stringify({
        worker_id: 'bench-worker-0',
        finish: { rollout_id: 'ro-ceiling', attempt_id: 'at-ceiling', status: 'succeeded' },
      }),
    ),
    contentType: 'application/json',
  };
  const spanRequests =
    spanPath === 'otlp'
      ? [{ body: Buffer.from(encodeSpansAsOtlp(spans)), contentType: 'application/x-protobuf' }]
      : spans.map((span) => ({
          body: Buffer.from(JSON.stringify(span)),
          contentType: 'application/json',
        }));
  const requests = [cycle, ...spanRequests];
  const endpoint = new URL(`${url}/v1/agl/x-arclight/runner/cycle`);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const state = { claimed: 0, completed: 0 };
  const loop = async (total, deadline) => {
    while (state.claimed < total && performance.now() < deadline) {
      state.claimed++;
      for (const { body, contentType } of requests) {
        const { status } = await post(endpoint, agent, body, contentType);
        if (status !== 200) throw new Error(`bare server answered ${status}`);
      }
      state.completed++;
    }
  };
  const runAll = (total, deadline) =>
    Promise.all(Array.from({ length: concurrency }, () => loop(total, deadline)));
  await runAll(WARMUP_LIFECYCLES, Number.POSITIVE_INFINITY);
  Object.assign(state, { claimed: 0, completed: 0 });
  const window = { start: monotonicMicros() };
  const t0 = performance.now();
  await runAll(lifecycles, t0 + seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  window.end = monotonicMicros();
  agent.destroy();
  return {
    rate: state.completed / elapsed,
    completed: state.completed,
    seconds: elapsed,
    notes: [`${requests.length} requests per lifecycle (no store)`],
    window,
    requestsPerLifecycle: requests.length,
  };
}

/** POSTs one body; resolves with the status code and the response body. */
function post(endpoint, agent, body, contentType) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      endpoint,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': contentType, 'content-length': body.byteLength },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, answer: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
