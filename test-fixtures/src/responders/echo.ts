// Built-in responder: the default answer, `Fixture answer to: <last user text>`.
import type { Responder } from '../types.js';

export const ECHO_PREFIX = 'Fixture answer to: ';

export const echoResponder: Responder = {
  name: 'echo',
  match: () => true,
  reply: (req) => ({ content: ECHO_PREFIX + req.lastUserText }),
};
