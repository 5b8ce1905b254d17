// Built-in responder: replays recorded chat completions for requests whose messages + model match.
import { recordingKey } from '../recordings.js';
import type { FixtureReply, Responder } from '../types.js';

export function replayResponder(recordings: ReadonlyMap<string, FixtureReply>): Responder {
  const lookup = (body: Record<string, unknown>) =>
    recordings.get(recordingKey(body.messages, body.model));
  return {
    name: 'replay',
    match: (req) => req.api === 'chat.completions' && lookup(req.body) !== undefined,
    reply: (req) => structuredClone(lookup(req.body)!),
  };
}
