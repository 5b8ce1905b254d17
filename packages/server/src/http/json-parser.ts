import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Request bodies of the `/v1/agl` routes, parsed the way FastAPI does:
 * - `application/json` is parsed; an empty body is `undefined` (routes whose body is optional upstream accept it);
 * - a body without `Content-Type` is parsed as JSON too;
 * - an empty body of any other type (aiohttp sends `json=None` as an empty `application/octet-stream`) is
 *   `undefined`; a non-empty one is a 415.
 * Malformed JSON is a 400 `{"detail": "Malformed JSON body: ..."}`. Prototype-poisoning keys (`__proto__`,
 * `constructor.prototype`) are removed while parsing.
 */
export function installJsonParser(app: FastifyInstance): void {
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
