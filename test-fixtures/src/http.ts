// Small node:http helpers: reading JSON bodies, OpenAI-style JSON errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorTypeForStatus } from './responders/error.js';
import type { FixtureErrorReply, JsonObject } from './types.js';

/** Thrown by request normalisation; becomes an HTTP error response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined)
      out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: FixtureErrorReply): void {
  const body: JsonObject = {
    error: {
      message: error.message,
      type: error.type ?? errorTypeForStatus(error.status),
      param: error.param ?? null,
      code: error.code ?? null,
    },
  };
  sendJson(res, error.status, body, error.headers);
}

/** Parses a request body as a JSON object, or throws a 400 HttpError. */
export function parseJsonObject(text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `Malformed JSON body: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return value as JsonObject;
}
