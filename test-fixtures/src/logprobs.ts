// Deterministic log-probabilities: a token's logprob depends only on its id and its position in the
// completion, so streamed chunks and the plain response agree. The sampled token is always the most
// likely one; alternatives come from a fixed list and are strictly less likely.
import { fnv1a } from './hash.js';
import type { FixtureTokenizer } from './tokenizer.js';

export interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface ChatLogprob extends TopLogprob {
  top_logprobs: TopLogprob[];
}

/** The legacy Completions `logprobs` object. */
export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Record<string, number>[] | null;
  text_offset: number[];
}

/** Alternatives in the `bytes` vocabulary: single characters, each one token there. */
const BYTE_ALTERNATIVES = [' ', 'e', 't', 'a', 'o', '.', ',', 'n', 'i', 's', '\n', '!'];

const ALTERNATIVES = [
  ' the',
  ' a',
  '.',
  ',',
  ' and',
  ' of',
  ' to',
  ' is',
  ' in',
  'The',
  ' it',
  '!',
];

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

export function tokenLogprob(id: number, position: number): number {
  return round(-(fnv1a(`${id}:${position}`) % 25_000) / 10_000);
}

function bytes(token: string): number[] {
  return [...Buffer.from(token, 'utf8')];
}

function alternatives(
  tokenizer: FixtureTokenizer,
  token: string,
  id: number,
  position: number,
  count: number,
): TopLogprob[] {
  const lp = tokenLogprob(id, position);
  const list = tokenizer.vocabulary === 'bytes' ? BYTE_ALTERNATIVES : ALTERNATIVES;
  const start = fnv1a(`alt:${id}:${position}`) % list.length;
  const out: TopLogprob[] = [];
  for (let k = 0; out.length < count && k < list.length; k++) {
    const alt = list[(start + k) % list.length]!;
    if (alt === token) continue;
    out.push({ token: alt, logprob: round(lp - 0.75 * (out.length + 1)), bytes: bytes(alt) });
  }
  return out;
}

/** Chat-style entries for `ids`, the first of which sits at completion position `start`. */
export function chatLogprobs(
  tokenizer: FixtureTokenizer,
  ids: readonly number[],
  start: number,
  topN: number,
): ChatLogprob[] {
  return ids.map((id, i) => {
    const token = tokenizer.idToToken(id);
    const logprob = tokenLogprob(id, start + i);
    const own = tokenizer.tokenBytes(id);
    const top =
      topN > 0
        ? [
            { token, logprob, bytes: own },
            ...alternatives(tokenizer, token, id, start + i, topN - 1),
          ]
        : [];
    return { token, logprob, bytes: own, top_logprobs: top };
  });
}

/**
 * Legacy Completions logprobs; `textOffset` is the character offset of the first token. Every token of a
 * multi-token character (`bytes` vocabulary) has the offset of that character.
 */
export function legacyLogprobs(
  tokenizer: FixtureTokenizer,
  ids: readonly number[],
  start: number,
  topN: number,
  textOffset: number,
): LegacyLogprobs {
  const entries = chatLogprobs(tokenizer, ids, start, topN);
  let offset = textOffset;
  const text_offset = tokenizer.units(ids).flatMap((unit) => {
    const at = offset;
    offset += tokenizer.decode(unit).length;
    return unit.map(() => at);
  });
  return {
    tokens: entries.map((e) => e.token),
    token_logprobs: entries.map((e) => e.logprob),
    top_logprobs:
      topN > 0
        ? entries.map((e) => Object.fromEntries(e.top_logprobs.map((t) => [t.token, t.logprob])))
        : null,
    text_offset,
  };
}
