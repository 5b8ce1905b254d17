import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Replaces Fastify's JSON parser with one that accepts an empty body (→ `undefined`, for routes whose body is
 * optional upstream) and reports malformed JSON as 400 `{"detail": "Malformed JSON body: ..."}`.
 * Every other content type is answered with 415. Prototype-poisoning keys (`__proto__`, `constructor.prototype`) are removed while parsing.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) done(new HttpError(400, 'Malformed JSON body: not valid JSON'), undefined);
      else done(null, value);
    });
  });
}
