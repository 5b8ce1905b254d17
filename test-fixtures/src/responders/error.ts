// Built-in responder: errors on demand. Header `x-fixture-error: <status>` or model `fixture-error-<status>`
// makes the server answer with that HTTP status and an OpenAI-style error body.
import type { FixtureErrorReply, FixtureRequest, Responder } from '../types.js';

export const ERROR_HEADER = 'x-fixture-error';
const ERROR_MODEL = /^fixture-error-(\d{3})$/;

/** OpenAI's error `type` for an HTTP status. */
export function errorTypeForStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function requestedStatus(req: FixtureRequest): { status: number; via: string } | undefined {
  const header = req.headers[ERROR_HEADER];
  if (header !== undefined && /^\d{3}$/.test(header.trim())) {
    return { status: Number(header.trim()), via: `header ${ERROR_HEADER}` };
  }
  const m = ERROR_MODEL.exec(req.model);
  return m ? { status: Number(m[1]), via: `model ${req.model}` } : undefined;
}

export function fixtureError(status: number, message: string): FixtureErrorReply {
  return { status, message, type: errorTypeForStatus(status) };
}

export const errorResponder: Responder = {
  name: 'error-on-demand',
  match: (req) => {
    const s = requestedStatus(req);
    return s !== undefined && s.status >= 400 && s.status <= 599;
  },
  reply: (req) => {
    const { status, via } = requestedStatus(req)!;
    return { error: fixtureError(status, `Fixture error ${status} requested via ${via}`) };
  },
};
