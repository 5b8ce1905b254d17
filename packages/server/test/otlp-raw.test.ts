import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.js';
import { recordSpans } from './otel.js';

type Harness = Awaited<ReturnType<typeof harness>>;

const serializeProto = (spans: ReadableSpan[]) =>
  Buffer.from(ProtobufTraceSerializer.serializeRequest(spans as never)!);
const serializeJson = (spans: ReadableSpan[]) =>
  Buffer.from(JsonTraceSerializer.serializeRequest(spans as never)!);

async function post(h: Harness, body: Buffer | string, headers: Record<string, string>) {
  return h.server.app.inject({ method: 'POST', url: '/v1/traces', payload: body, headers });
}

/** google.rpc.Status, decoded independently of the server's own schema. */
function decodeRpcStatus(bytes: Buffer): { code: number; message: string } {
  const { root } = protobuf.parse(
    'syntax = "proto3"; message S { int32 code = 1; string message = 2; }',
  );
  return root
    .lookupType('S')
    .toObject(root.lookupType('S').decode(bytes), { defaults: true }) as never;
}

async function setup() {
  const h = await harness();
  const rollout = await h.store.startRollout({ input: 1 });
  const attrs = {
    'agentlightning.rollout_id': rollout.rollout_id,
    'agentlightning.attempt_id': rollout.attempt.attempt_id,
  };
  return { h, rollout, attrs };
}

describe('POST /v1/traces: partial success', () => {
  it('protobuf: unattributed spans are rejected and counted; the rest is stored', async () => {
    const { h, rollout, attrs } = await setup();
    const attributed = await recordSpans(attrs);
    const unattributed = await recordSpans({});
    const res = await post(h, serializeProto([...attributed, ...unattributed]), {
      'content-type': 'application/x-protobuf',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    const response = ProtobufTraceSerializer.deserializeResponse(res.rawPayload);
    expect(Number(response.partialSuccess?.rejectedSpans)).toBe(2);
    expect(response.partialSuccess?.errorMessage).toContain('agentlightning.rollout_id');
    expect((await h.store.querySpans(rollout.rollout_id)).total).toBe(2);
  });

  it('JSON: spans of unknown rollouts/attempts are rejected and counted, not failing the batch', async () => {
    const { h, rollout, attrs } = await setup();
    const good = await recordSpans(attrs);
    const unknownRollout = await recordSpans({
      'agentlightning.rollout_id': 'ro-ghost',
      'agentlightning.attempt_id': 'at-ghost',
    });
    const unknownAttempt = await recordSpans({ ...attrs, 'agentlightning.attempt_id': 'at-ghost' });
    const res = await post(h, serializeJson([...good, ...unknownRollout, ...unknownAttempt]), {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json();
    expect(Number(body.partialSuccess.rejectedSpans)).toBe(4);
    expect(body.partialSuccess.errorMessage).toContain('ro-ghost');
    const stored = (await h.store.querySpans(rollout.rollout_id)).items;
    expect(stored.map((s) => s.name).sort()).toEqual(['agent', 'llm']);
  });

  it('a fully accepted batch answers an empty ExportTraceServiceResponse', async () => {
    const { h, attrs } = await setup();
    const spans = await recordSpans(attrs);
    const proto = await post(h, serializeProto(spans), {
      'content-type': 'application/x-protobuf',
    });
    expect(proto.statusCode).toBe(200);
    expect(proto.rawPayload.length).toBe(0);
    const json = await post(h, serializeJson(spans), { 'content-type': 'application/json' });
    expect(json.json()).toEqual({});
  });
});

describe('POST /v1/traces: encodings and errors', () => {
  it('gzip request bodies are decompressed; small responses stay uncompressed', async () => {
    const { h, rollout, attrs } = await setup();
    const spans = [...(await recordSpans(attrs)), ...(await recordSpans({}))];
    const res = await post(h, gzipSync(serializeProto(spans)), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
      'accept-encoding': 'gzip, deflate',
    });
    expect(res.statusCode).toBe(200);
    // A few-byte response is not worth compressing even when the client accepts gzip.
    expect(res.headers['content-encoding']).toBeUndefined();
    const response = ProtobufTraceSerializer.deserializeResponse(res.rawPayload);
    expect(Number(response.partialSuccess?.rejectedSpans)).toBe(2);
    expect((await h.store.querySpans(rollout.rollout_id)).total).toBe(2);

    const json = await post(h, gzipSync(serializeJson(await recordSpans(attrs))), {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
    });
    expect(json.statusCode).toBe(200);
    expect((await h.store.querySpans(rollout.rollout_id)).total).toBe(4);
  });

  it('an empty body is an empty, successful export', async () => {
    const { h } = await setup();
    const res = await post(h, Buffer.alloc(0), { 'content-type': 'application/x-protobuf' });
    expect(res.statusCode).toBe(200);
  });

  it('garbage protobuf → 400 with a google.rpc.Status body', async () => {
    const { h } = await setup();
    const res = await post(h, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), {
      'content-type': 'application/x-protobuf',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    const status = decodeRpcStatus(res.rawPayload);
    expect(status.message).toMatch(/Unable to parse OTLP traces payload/);
  });

  it('malformed OTLP/JSON → 400 naming the offending path', async () => {
    const { h } = await setup();
    const notJson = await post(h, '{"resourceSpans": [', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toMatch(/not valid JSON/);
    const badId = await post(
      h,
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz!', spanId: '01' }] }] }],
      }),
      { 'content-type': 'application/json' },
    );
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toContain('resourceSpans[0].scopeSpans[0].spans[0].traceId');
  });

  it('corrupt gzip → 400; unknown content encoding → 415; wrong content type → 415', async () => {
    const { h } = await setup();
    const corrupt = await post(h, Buffer.from('not gzip'), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(corrupt.statusCode).toBe(400);
    expect(decodeRpcStatus(corrupt.rawPayload).message).toMatch(/decompress/);

    const br = await post(h, Buffer.from('x'), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'br',
    });
    expect(br.statusCode).toBe(415);

    const text = await post(h, 'hello', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toContain("Unsupported Content-Type 'text/plain'");
  });

  it('bodies over bodyLimit → 413, compressed or once decompressed', async () => {
    const h = await harness({ bodyLimit: 2048 });
    const big = Buffer.alloc(4096, 1);
    const raw = await post(h, big, { 'content-type': 'application/x-protobuf' });
    expect(raw.statusCode).toBe(413);
    const bomb = await post(h, gzipSync(Buffer.alloc(1_000_000)), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(bomb.statusCode).toBe(413);
    expect(decodeRpcStatus(bomb.rawPayload).message).toBe(
      'Decompressed request body exceeds limits.maxDecompressedBytes (2048)',
    );
  });
});
