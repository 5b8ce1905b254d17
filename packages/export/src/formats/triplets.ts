import { field } from '../json-shapes.js';
import type { JsonLine } from '../sinks/json-line.js';
import type { RolloutFormat } from './format.js';

/** A line of the native format: one LLM call with its rollout context (a superset of upstream's Triplet). */
export interface TripletLine {
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  mode: string | null;
  turn_index: number;
  agent_name: string | null;
  response_id: string | null;
  prompt: { token_ids: number[]; raw_content: unknown; image_urls: unknown[] };
  /** `logprobs`: one per response token (the sampled token's logprob), null when not recorded. */
  response: { token_ids: number[]; raw_content: unknown; logprobs: number[] | null };
  /** The rollout's reward, given to every call (LightningRL identical assignment). */
  reward: number;
  /** The reward the adapter matched to this call itself, if any. */
  call_reward: number | null;
  metadata: Record<string, unknown>;
}

/** Writes `JSON.stringify(line)` (see `JsonLine`); the prompt ids are remembered for the next call's. */
function tripletLine(line: TripletLine, out: JsonLine): void {
  const { prompt, response } = line;
  out.text(`{${out.members(line, TRIPLET_HEAD)},"prompt":{"token_ids":`);
  out.ints(prompt.token_ids, true);
  out.text(`,${out.members(prompt, ['raw_content', 'image_urls'])}},"response":{"token_ids":`);
  out.ints(response.token_ids);
  out.text(`,"raw_content":${out.value(response.raw_content)},"logprobs":`);
  out.numbers(response.logprobs);
  out.text(`},${out.members(line, ['reward', 'call_reward', 'metadata'])}}`);
}

const TRIPLET_HEAD = [
  'rollout_id',
  'attempt_id',
  'task_id',
  'mode',
  'turn_index',
  'agent_name',
  'response_id',
] as const;

export const tripletsFormat: RolloutFormat<TripletLine> = {
  name: 'triplets',
  description: 'native triplet JSONL: one line per LLM call (ids, raw content, logprobs, rewards)',
  grouping: 'rollout',
  output: { kind: 'jsonl', line: tripletLine },
  rows(rollout) {
    return rollout.calls.map((call) => {
      const images = field(call.triplet.prompt, 'image_urls');
      return {
        rollout_id: rollout.rollout_id,
        attempt_id: rollout.attempt_id,
        task_id: rollout.task_id,
        mode: rollout.mode,
        turn_index: call.turn_index,
        agent_name: call.agent_name,
        response_id: call.response_id,
        prompt: {
          token_ids: call.prompt_ids ?? [],
          raw_content: field(call.triplet.prompt, 'raw_content') ?? null,
          image_urls: Array.isArray(images) ? images : [],
        },
        response: {
          token_ids: call.response_ids ?? [],
          raw_content: field(call.triplet.response, 'raw_content') ?? null,
          logprobs: call.logprobs,
        },
        reward: rollout.reward,
        call_reward: call.call_reward,
        metadata: call.triplet.metadata,
      };
    });
  },
};
