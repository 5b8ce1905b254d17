// A small deterministic, reversible tokenizer. Text is pre-split into word / number / punctuation /
// whitespace pieces (GPT-style, a leading space sticks to the following word); each piece is then cut into
// chunks of up to three ASCII characters or a single non-ASCII code point. Every chunk maps to an id by
// arithmetic alone, so any id list decodes back without state: decode(encode(x)) === x for every string.
import {
  type ChatTemplateOptions,
  renderChatTemplate,
  renderChatTemplateChunks,
} from './chat-template.js';
import type { ChatMessage, ChatToolInput } from './types.js';

/** Special tokens, recognised literally in text by `encode` and rendered by the chat template. */
export const SPECIAL_TOKENS: Readonly<Record<string, number>> = Object.freeze({
  '<|endoftext|>': 0,
  '<|im_start|>': 1,
  '<|im_end|>': 2,
  '<|eos|>': 3,
  '<tool_call>': 4,
  '</tool_call>': 5,
  '<tool_response>': 6,
  '</tool_response>': 7,
  '<think>': 8,
  '</think>': 9,
});

export const IM_START_ID = 1;
export const IM_END_ID = 2;
export const EOS_ID = 3;

/** ASCII chunks of 1–3 characters occupy [ASCII_BASE, ASCII_BASE + ASCII_SPAN). */
export const ASCII_BASE = 1000;
const ONE = 128;
const TWO = 128 * 128;
const THREE = 128 * 128 * 128;
const ASCII_SPAN = ONE + TWO + THREE;
/** A non-ASCII code point cp has id UNICODE_BASE + cp. */
export const UNICODE_BASE = 3_000_000;
const MAX_CODE_POINT = 0x10ffff;
export const VOCAB_SIZE = UNICODE_BASE + MAX_CODE_POINT + 1;

const SPECIAL_BY_ID = new Map(Object.entries(SPECIAL_TOKENS).map(([text, id]) => [id, text]));
const SPECIAL_SPLIT = new RegExp(
  `(${Object.keys(SPECIAL_TOKENS)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})`,
);
const PIECE = / ?\p{L}+| ?\p{N}{1,3}| ?[^\s\p{L}\p{N}]+|\s+/uy;

export interface EncodeOptions {
  /** Recognise special-token literals such as `<|im_end|>` in the text (default true). */
  allowSpecial?: boolean;
}

function asciiChunkId(chunk: string): number {
  const c = [...chunk].map((ch) => ch.charCodeAt(0));
  if (c.length === 1) return ASCII_BASE + c[0]!;
  if (c.length === 2) return ASCII_BASE + ONE + c[0]! * 128 + c[1]!;
  return ASCII_BASE + ONE + TWO + c[0]! * TWO + c[1]! * 128 + c[2]!;
}

function asciiChunkText(index: number): string {
  if (index < ONE) return String.fromCharCode(index);
  if (index < ONE + TWO) {
    const v = index - ONE;
    return String.fromCharCode(Math.floor(v / 128), v % 128);
  }
  const v = index - ONE - TWO;
  return String.fromCharCode(Math.floor(v / TWO), Math.floor(v / 128) % 128, v % 128);
}

/** Splits text into pre-tokenizer pieces whose concatenation is the text. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    PIECE.lastIndex = at;
    const m = PIECE.exec(text);
    const piece = m?.[0] || String.fromCodePoint(text.codePointAt(at)!);
    out.push(piece);
    at += piece.length;
  }
  return out;
}

/** Cuts one piece into token chunks (≤3 ASCII characters, or one non-ASCII code point). */
function chunks(piece: string): string[] {
  const out: string[] = [];
  let ascii = '';
  for (const ch of piece) {
    if (ch.codePointAt(0)! < 128) {
      ascii += ch;
      if (ascii.length === 3) {
        out.push(ascii);
        ascii = '';
      }
    } else {
      if (ascii) out.push(ascii);
      ascii = '';
      out.push(ch);
    }
  }
  if (ascii) out.push(ascii);
  return out;
}

export class FixtureTokenizer {
  readonly vocabSize = VOCAB_SIZE;
  readonly specialTokens = SPECIAL_TOKENS;
  readonly imStartId = IM_START_ID;
  readonly imEndId = IM_END_ID;
  readonly eosId = EOS_ID;

  /** The token strings of `text`, in order (`tokenize(x).join('') === x`). */
  tokenize(text: string, options: EncodeOptions = {}): string[] {
    const parts = options.allowSpecial === false ? [text] : text.split(SPECIAL_SPLIT);
    const out: string[] = [];
    parts.forEach((part, i) => {
      if (part === '') return;
      // With a capturing split, odd indexes are the special-token separators.
      if (options.allowSpecial !== false && i % 2 === 1) out.push(part);
      else for (const piece of pieces(part)) out.push(...chunks(piece));
    });
    return out;
  }

  encode(text: string, options: EncodeOptions = {}): number[] {
    const special = options.allowSpecial !== false;
    return this.tokenize(text, options).map((t) =>
      special && t in SPECIAL_TOKENS ? SPECIAL_TOKENS[t]! : this.tokenId(t),
    );
  }

  decode(ids: readonly number[]): string {
    return ids.map((id) => this.idToToken(id)).join('');
  }

  /** The id of one token chunk as produced by `tokenize` (special tokens included). */
  tokenId(token: string): number {
    const special = SPECIAL_TOKENS[token];
    if (special !== undefined) return special;
    const cps = [...token];
    if (cps.length === 1 && token.codePointAt(0)! >= 128)
      return UNICODE_BASE + token.codePointAt(0)!;
    if (cps.length >= 1 && cps.length <= 3 && cps.every((c) => c.codePointAt(0)! < 128)) {
      return asciiChunkId(token);
    }
    throw new RangeError(`token ${JSON.stringify(token)} is not a single fixture token`);
  }

  /** The text of one id; throws RangeError for ids outside the vocabulary. */
  idToToken(id: number): string {
    const special = SPECIAL_BY_ID.get(id);
    if (special !== undefined) return special;
    if (Number.isInteger(id) && id >= ASCII_BASE && id < ASCII_BASE + ASCII_SPAN) {
      return asciiChunkText(id - ASCII_BASE);
    }
    if (Number.isInteger(id) && id >= UNICODE_BASE && id <= UNICODE_BASE + MAX_CODE_POINT) {
      return String.fromCodePoint(id - UNICODE_BASE);
    }
    throw new RangeError(`token id ${id} is not in the fixture vocabulary`);
  }

  isSpecial(id: number): boolean {
    return SPECIAL_BY_ID.has(id);
  }

  /** Renders a chat (ChatML / Qwen-style template) into prompt text. */
  render(
    messages: readonly ChatMessage[],
    tools?: readonly ChatToolInput[],
    options?: ChatTemplateOptions,
  ): string {
    return renderChatTemplate(messages, tools, options);
  }

  /**
   * The prompt token ids a chat request produces: the rendered text, with each assistant message encoded in the
   * segments it was generated in (so a turn's prompt + reply ids are a prefix of the next turn's prompt ids).
   */
  encodeChat(
    messages: readonly ChatMessage[],
    tools?: readonly ChatToolInput[],
    options?: ChatTemplateOptions,
  ): number[] {
    return renderChatTemplateChunks(messages, tools, options).flatMap((chunk) =>
      this.encode(chunk),
    );
  }
}
