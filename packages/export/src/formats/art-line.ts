import type { ChatMessage } from '../record.js';
import type { JsonLine } from '../sinks/json-line.js';
import type { ArtChoice, ArtHistory, ArtTokenLogprobs, ArtTrajectoryGroup } from './art.js';

/**
 * Writes `JSON.stringify(group)` of an ART `TrajectoryGroup` line (see `JsonLine`). Nearly all of a line is its
 * Choices' per-token logprobs (`{"token":"token_id:<id>","logprob":…,"bytes":null,"top_logprobs":[]}`,
 * ~70 bytes for each generated token) and their prompt ids: those are written piece by piece into the buffer,
 * the prompt ids remembered for the next call's (an agent's prompts grow call by call). Messages, tools and
 * the small members go through `out.value` (`JSON.stringify`). The key order is the one `art.ts` builds.
 */
export function artLine(group: ArtTrajectoryGroup, out: JsonLine): void {
  out.text('{"trajectories":[');
  const trajectories = group.trajectories;
  for (let i = 0; i < trajectories.length; i++) {
    const t = trajectories[i]!;
    if (i > 0) out.text(',');
    history(t, out);
    out.text(',"additional_histories":[');
    for (let j = 0; j < t.additional_histories.length; j++) {
      if (j > 0) out.text(',');
      history(t.additional_histories[j]!, out);
      out.text('}');
    }
    out.text(
      `],"reward":${out.value(t.reward)},"metrics":${out.value(t.metrics)},"metadata":${out.value(t.metadata)},"logs":${out.value(t.logs)}}`,
    );
  }
  out.text(
    `],"metadata":${out.value(group.metadata)},"exceptions":${out.value(group.exceptions)}}`,
  );
}

/** `{"messages_and_choices":[…],"tools":…` (the object left open: a trajectory goes on with its members). */
function history(h: ArtHistory, out: JsonLine): void {
  out.text('{"messages_and_choices":[');
  const items = h.messages_and_choices;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) out.text(',');
    if (isChoice(item)) choice(item, out);
    else out.text(out.value(item));
  }
  out.text(`],"tools":${out.value(h.tools)}`);
}

/** Choices carry `finish_reason`; the plain messages (`openaiMessage`) never do. */
const isChoice = (item: ChatMessage | ArtChoice): item is ArtChoice => 'finish_reason' in item;

function choice(c: ArtChoice, out: JsonLine): void {
  out.text(
    `{"finish_reason":${out.value(c.finish_reason)},"index":${out.value(c.index)},"message":${out.value(c.message)},"logprobs":`,
  );
  if (c.logprobs === null) out.text('null');
  else {
    out.text('{"content":[');
    logprobs(c.logprobs.content, out);
    out.text(`],"refusal":${out.value(c.logprobs.refusal)}}`);
  }
  if (c.prompt_token_ids !== undefined) {
    out.text(',"prompt_token_ids":');
    out.ints(c.prompt_token_ids, true);
  }
  if (c.token_ids !== undefined) {
    out.text(',"token_ids":');
    out.ints(c.token_ids);
  }
  out.text('}');
}

const TOKEN = [Buffer.from('{"token":'), Buffer.from(',{"token":')];
const ID_TOKEN = [Buffer.from('{"token":"token_id:'), Buffer.from(',{"token":"token_id:')];
const LOGPROB = Buffer.from(',"logprob":');
const ID_LOGPROB = Buffer.from('","logprob":');
const NO_BYTES_END = Buffer.from(',"bytes":null,"top_logprobs":[]}');

/**
 * The entries of `logprobs.content` (see `ArtTokenLogprobs.toJSON`), without the brackets: a `token_id:<id>`
 * token is written with its id's digits (`${id}` and `JSON.stringify(id)` are the same text for a number).
 */
function logprobs(content: ArtTokenLogprobs, out: JsonLine): void {
  const { logprobs, ids } = content;
  for (let i = 0; i < logprobs.length; i++) {
    const next = i === 0 ? 0 : 1;
    if (ids) {
      out.raw(ID_TOKEN[next]!);
      out.number(ids[i]!);
      out.raw(ID_LOGPROB);
    } else {
      out.raw(TOKEN[next]!);
      out.string(content.token(i));
      out.raw(LOGPROB);
    }
    out.number(logprobs[i]!);
    const bytes = content.bytes(i);
    if (bytes === null) out.raw(NO_BYTES_END);
    else out.text(`,"bytes":${out.value(bytes)},"top_logprobs":[]}`);
  }
}
