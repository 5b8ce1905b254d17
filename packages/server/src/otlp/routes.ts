import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { LightningStore } from '@arclight/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, statusOf } from '../http/errors.js';
import { checkJsonText, LimitError, otlpJsonDepth, type RequestLimits } from '../http/limits.js';
import type { ServerMetrics } from '../http/metrics.js';
import { otlpToSpans } from './convert.js';
import { decodeJsonTraces } from './decode-json.js';
import { decodeProtobufTraces } from './decode-protobuf.js';
import { ingestOtlpSpans } from './ingest.js';
import { OtlpDecodeError } from './model.js';
import {
  contentTypeOf,
  encodeExportResponse,
  encodeRpcStatus,
  JSON_CONTENT_TYPE,
  type OtlpEncoding,
  PROTOBUF_CONTENT_TYPE,
} from './response.js';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);
const GZIP_MIN_BYTES = 1024;

/** gRPC status codes used in `google.rpc.Status` bodies. */
const RPC_INVALID_ARGUMENT = 3;
const RPC_INTERNAL = 13;
const RPC_UNAVAILABLE = 14;

/**
 * `POST /v1/traces` (OTLP/HTTP): binary protobuf or OTLP/JSON, optionally gzip-compressed; `POST /v1/metrics`,
 * `/v1/logs`, `/v1/development/profiles` answer 501. Registered in its own
 * encapsulated context so its raw-body parser and `google.rpc.Status` error bodies stay local to the route.
 */
export async function otlpTracesPlugin(
  app: FastifyInstance,
  options: { store: LightningStore; limits: RequestLimits; metrics?: ServerMetrics },
): Promise<void> {
  const { store, limits, metrics } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const status = statusOf(error) ?? 500;
    const message =
      status === 500
        ? `Internal server error (request id ${request.id})`
        : (error as Error).message;
    if (status === 500) request.log.error({ err: error, reqId: request.id }, 'OTLP export failed');
    else if (error instanceof LimitError) metrics?.markRejected(request, error.reason);
    const code =
      status === 500 ? RPC_INTERNAL : status === 503 ? RPC_UNAVAILABLE : RPC_INVALID_ARGUMENT;
    const encoding = encodingOf(request) ?? 'json';
    return reply
      .code(status)
      .header('content-type', contentTypeOf(encoding))
      .send(encodeRpcStatus(encoding, code, message));
  });

  for (const path of UNSUPPORTED_SIGNALS) {
    app.post(path, async (_request, reply) => reply.code(501).send());
  }

  app.post('/v1/traces', async (request, reply) => {
    const encoding = encodingOf(request);
    if (encoding === undefined) {
      throw new HttpError(
        415,
        `Unsupported Content-Type '${mediaType(request)}', expected '${PROTOBUF_CONTENT_TYPE}' or '${JSON_CONTENT_TYPE}'`,
      );
    }
    const raw = await decompress(request, limits.maxDecompressedBytes);
    const data = decode(encoding, raw, limits);
    const result = await ingestOtlpSpans(store, otlpToSpans(data));
    metrics?.spansIngested('otlp', result.accepted);
    if (result.rejected > 0) {
      request.log.warn(`OTLP export: ${result.rejected} span(s) rejected: ${result.errorMessage}`);
    }
    let payload = encodeExportResponse(encoding, result.rejected, result.errorMessage);
    // Responses are a few bytes unless spans were rejected; compressing those costs more than it saves.
    if (payload.length >= GZIP_MIN_BYTES && acceptsGzip(request)) {
      payload = await gzipAsync(payload);
      reply.header('content-encoding', 'gzip');
    }
    return reply.code(200).header('content-type', contentTypeOf(encoding)).send(payload);
  });
}

/** OTLP signals this server does not implement (upstream answers 501 too). */
const UNSUPPORTED_SIGNALS = ['/v1/metrics', '/v1/logs', '/v1/development/profiles'];

const mediaType = (request: FastifyRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

function encodingOf(request: FastifyRequest): OtlpEncoding | undefined {
  const type = mediaType(request);
  if (type === PROTOBUF_CONTENT_TYPE) return 'protobuf';
  if (type === JSON_CONTENT_TYPE) return 'json';
  return undefined;
}

function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'] ?? '';
  return header.split(',').some((token) => token.split(';')[0]!.trim().toLowerCase() === 'gzip');
}

async function decompress(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const encoding = String(request.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === '' || encoding === 'identity') return body;
  if (encoding !== 'gzip') throw new HttpError(415, `Unsupported Content-Encoding '${encoding}'`);
  if (body.length === 0) return body;
  try {
    // zlib stops inflating as soon as the output would pass the cap, so a bomb costs at most `maxBytes`.
    return await gunzipAsync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new LimitError(413, 'maxDecompressedBytes', maxBytes, 'Decompressed request body');
    }
    throw new HttpError(400, `Unable to decompress gzip request body: ${(error as Error).message}`);
  }
}

function decode(encoding: OtlpEncoding, raw: Buffer, limits: RequestLimits) {
  if (raw.length === 0) return [];
  if (encoding === 'protobuf') {
    return rethrowAs400(() => decodeProtobufTraces(raw, limits));
  }
  const text = raw.toString('utf8');
  checkJsonText(text, otlpJsonDepth(limits), limits);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Unable to parse OTLP/JSON traces payload: not valid JSON');
  }
  return rethrowAs400(() => decodeJsonTraces(json, limits));
}

function rethrowAs400<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw new HttpError(400, error.message);
    throw error;
  }
}
