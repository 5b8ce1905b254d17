// Responders choose replies; the first whose match() is true answers. `respond()` builds a custom one.
import type { FixtureReply, FixtureRequest, Responder, ResponderContext } from '../types.js';

export { ECHO_PREFIX, echoResponder } from './echo.js';
export { ERROR_HEADER, errorResponder, errorTypeForStatus, fixtureError } from './error.js';
export { replayResponder } from './replay.js';
export * from './room-selector.js';
export { exampleArguments, exampleValue } from './schema-args.js';
export { summarizeToolResults, TOOL_CALL_HEADER, TOOLS_MODEL, toolCallResponder } from './tools.js';

export type ReplySource =
  | FixtureReply
  | string
  | ((
      req: FixtureRequest,
      ctx: ResponderContext,
    ) => FixtureReply | string | Promise<FixtureReply | string>);

/**
 * A responder from a condition and a reply. A string or RegExp condition is tested against the last user
 * text (a string matches when contained); a string reply is shorthand for `{ content }`.
 */
export function respond(
  when: string | RegExp | ((req: FixtureRequest) => boolean),
  reply: ReplySource,
  name?: string,
): Responder {
  const match =
    typeof when === 'function'
      ? when
      : typeof when === 'string'
        ? (req: FixtureRequest) => req.lastUserText.includes(when)
        : (req: FixtureRequest) => {
            when.lastIndex = 0;
            return when.test(req.lastUserText);
          };
  return {
    name: name ?? `respond(${String(when)})`,
    match,
    reply: async (req, ctx) => {
      const r = typeof reply === 'function' ? await reply(req, ctx) : reply;
      return typeof r === 'string' ? { content: r } : r;
    },
  };
}
