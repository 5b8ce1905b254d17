import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { checkJsonText, type RequestLimits, restJsonDepth } from './limits.js';

/**
 * Request bodies of the `/v1/agl` routes, parsed the way FastAPI does:
 * - `application/json` is parsed; an empty body is `undefined` (routes whose body is optional upstream accept it);
 * - a body without `Content-Type` is parsed as JSON too;
 * - an empty body of any other type (aiohttp sends `json=None` as an empty `application/octet-stream`) is
 *   `undefined`; a non-empty one is a 415.
 * Malformed JSON is a 400 `{"detail": "Malformed JSON body: ..."}`. Prototype-poisoning keys (`__proto__`,
 * `constructor.prototype`) are removed while parsing. Nesting deeper than `limits.maxDepth` (plus the body's own
 * envelope) is a 400 before parsing, so no later recursive walk of a stored value can overflow the stack.
 */
export function installJsonParser(app: FastifyInstance, limits: RequestLimits): void {
  const maxDepth = restJsonDepth(limits);
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  const parse = (
    request: FastifyRequest,
    text: string,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      checkJsonText(text, maxDepth, limits);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) done(new HttpError(400, 'Malformed JSON body: not valid JSON'), undefined);
      else done(null, value);
    });
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parse(request, typeof body === 'string' ? body : body.toString('utf8'), done),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const contentType = request.headers['content-type'];
    if (bytes.length === 0) done(null, undefined);
    else if (contentType === undefined) parse(request, bytes.toString('utf8'), done);
    else {
      done(
        new HttpError(
          415,
          `Unsupported Content-Type '${contentType}', expected 'application/json'`,
        ),
        undefined,
      );
    }
  });
}
