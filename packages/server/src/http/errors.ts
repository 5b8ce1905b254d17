import { StoreError } from '@arclight/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error answered with a given HTTP status and `{"detail": message}`. */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, detail: string) {
    super(detail);
    this.name = 'HttpError';
    this.statusCode = statusCode;
  }
}

/** 400: a request that is well-formed but not acceptable (pagination checks, forbidden nulls). */
export const badRequest = (detail: string): HttpError => new HttpError(400, detail);

/** 422: a request body or query that does not match its schema (FastAPI's validation status). */
export const unprocessable = (detail: string): HttpError => new HttpError(422, detail);

const STORE_ERROR_STATUS: Record<string, number> = {
  NotFoundError: 404,
  ValidationError: 400,
  StoreClosedError: 503,
};

/** The HTTP status for a thrown value, or undefined for an unexpected error (→ 500). */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpError) return error.statusCode;
  if (error instanceof StoreError) return error.status;
  if (error instanceof Error) {
    // Typed store errors from another copy of @arclight/core are recognised by name.
    const byName = STORE_ERROR_STATUS[error.name];
    if (byName !== undefined) return byName;
    const fastifyStatus = (error as Partial<FastifyError>).statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      return fastifyStatus;
    }
  }
  return undefined;
}

function errorType(error: unknown): string {
  if (error instanceof Error) return error.constructor?.name || error.name;
  return typeof error;
}

/**
 * Installs the JSON error and not-found handlers on the app. A client error is answered with its status and
 * reason; anything else is a real fault: logged with the request id, answered 500 with that id (also in the
 * `x-request-id` header of every response) so a report can be matched to the log line.
 */
export function installErrorHandlers(
  app: FastifyInstance,
  onClientError?: (request: FastifyRequest, error: unknown) => void,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const status = statusOf(error);
    if (status !== undefined) {
      onClientError?.(request, error);
      const message = error instanceof Error ? error.message : String(error);
      return reply.code(status).send({ detail: describeClientError(error, message, request) });
    }
    request.log.error({ err: error, reqId: request.id }, 'Unhandled application error');
    if (!app.log.level || app.log.level === 'silent') {
      // Without a logger the fault would vanish: one line on stderr keeps it traceable by request id.
      process.stderr.write(
        `arclight server: request ${request.id} ${request.method} ${request.url} failed: ${
          error instanceof Error ? (error.stack ?? error.message) : String(error)
        }\n`,
      );
    }
    return reply.code(500).send({
      detail: `Internal server error (request id ${request.id})`,
      error_type: errorType(error),
      request_id: request.id,
    });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
}

function describeClientError(error: unknown, message: string, request: FastifyRequest): string {
  const code = (error as Partial<FastifyError>).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported Content-Type '${request.headers['content-type'] ?? ''}', expected 'application/json'`;
    default:
      return message;
  }
}
