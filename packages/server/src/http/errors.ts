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

/** Installs the JSON error and not-found handlers on the app. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const status = statusOf(error);
    if (status !== undefined) {
      const message = error instanceof Error ? error.message : String(error);
      return reply.code(status).send({ detail: describeClientError(error, message, request) });
    }
    request.log.error({ err: error }, 'Unhandled application error');
    return reply.code(500).send({ detail: 'Internal server error', error_type: errorType(error) });
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
