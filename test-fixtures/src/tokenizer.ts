// A small deterministic, reversible tokenizer with two vocabularies:
// - `chunks` (default): text is pre-split into word / number / punctuation / whitespace pieces (GPT-style, a
//   leading space sticks to the following word); each piece is cut into chunks of up to three ASCII characters
//   or a single non-ASCII code point; ids go up to ~4.1M.
// - `bytes`: one id per UTF-8 byte (272 ids in all), so the ids fit the embedding of a tiny model.
// Ids map to text by arithmetic alone, so any id list decodes back without state: decode(encode(x)) === x for
// every string, in both vocabularies.
import {
  type ChatTemplateOptions,
  renderChatTemplate,
  renderChatTemplateChunks,
} from './chat-template.js';
import type { ChatMessage, ChatToolInput } from './types.js';
import { characterLength, wtf8Bytes, wtf8Text } from './wtf8.js';

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

/** `bytes` vocabulary: byte b has id BYTE_BASE + b (the special tokens keep their ids below it). */
export const BYTE_BASE = 16;
export const BYTE_VOCAB_SIZE = BYTE_BASE + 256;

/** The fixture tokenizer's vocabularies (see the file comment). */
export type TokenizerVocabulary = 'chunks' | 'bytes';
export const TOKENIZER_VOCABULARIES: readonly TokenizerVocabulary[] = ['chunks', 'bytes'];

/** The vocabulary named by `value` (a `--tokenizer` flag, `ARCLIGHT_FIXTURE_TOKENIZER`); throws naming the choices. */
export function tokenizerVocabulary(
  value: string | undefined,
  source: string,
): TokenizerVocabulary {
  if (value === undefined || value === '') return 'chunks';
  if ((TOKENIZER_VOCABULARIES as readonly string[]).includes(value)) {
    return value as TokenizerVocabulary;
  }
  throw new RangeError(
    `${source}: unknown fixture tokenizer ${JSON.stringify(value)} (expected one of ${TOKENIZER_VOCABULARIES.join(', ')})`,
  );
}

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

export interface FixtureTokenizerOptions {
  /** `chunks` (default) or `bytes` (one id per UTF-8 byte, 272 ids: fits a tiny model's embedding). */
  vocabulary?: TokenizerVocabulary;
}

/** The id of a byte in the `bytes` vocabulary, written as OpenAI writes a partial UTF-8 token: \xNN. */
const BYTE_TOKEN = /^\\x([0-9a-f]{2})$/;

export class FixtureTokenizer {
  readonly vocabulary: TokenizerVocabulary;
  /** One more than the largest id: 4 114 112 (`chunks`) or 272 (`bytes`). */
  readonly vocabSize: number;
  readonly specialTokens = SPECIAL_TOKENS;
  readonly imStartId = IM_START_ID;
  readonly imEndId = IM_END_ID;
  readonly eosId = EOS_ID;

  constructor(options: FixtureTokenizerOptions = {}) {
    this.vocabulary = tokenizerVocabulary(options.vocabulary, 'FixtureTokenizer vocabulary');
    this.vocabSize = this.vocabulary === 'bytes' ? BYTE_VOCAB_SIZE : VOCAB_SIZE;
  }

  /**
   * The token strings of `text`, in order. `chunks`: `tokenize(x).join('') === x`. `bytes`: one string per byte,
   * the character itself for ASCII and \xNN for the bytes of a non-ASCII character (OpenAI's spelling of a
   * partial UTF-8 token).
   */
  tokenize(text: string, options: EncodeOptions = {}): string[] {
    if (this.vocabulary === 'bytes')
      return this.encode(text, options).map((id) => this.idToToken(id));
    return this.splitSpecial(text, options).flatMap(([part, special]) =>
      special ? [part] : pieces(part).flatMap(chunks),
    );
  }

  encode(text: string, options: EncodeOptions = {}): number[] {
    return this.splitSpecial(text, options).flatMap(([part, special]) => {
      if (special) return [SPECIAL_TOKENS[part]!];
      if (this.vocabulary === 'bytes') return wtf8Bytes(part).map((b) => BYTE_BASE + b);
      return pieces(part)
        .flatMap(chunks)
        .map((t) => this.tokenId(t));
    });
  }

  /** Text parts of `text`, each flagged as a special-token literal or plain text. */
  private splitSpecial(text: string, options: EncodeOptions): [string, boolean][] {
    if (options.allowSpecial === false) return text === '' ? [] : [[text, false]];
    // With a capturing split, odd indexes are the special-token separators.
    return text
      .split(SPECIAL_SPLIT)
      .map((part, i): [string, boolean] => [part, i % 2 === 1])
      .filter(([part]) => part !== '');
  }

  decode(ids: readonly number[]): string {
    if (this.vocabulary === 'chunks') return ids.map((id) => this.idToToken(id)).join('');
    let out = '';
    let bytes: number[] = [];
    for (const id of ids) {
      const special = SPECIAL_BY_ID.get(id);
      if (special === undefined) {
        bytes.push(this.byteOf(id));
        continue;
      }
      out += wtf8Text(bytes) + special;
      bytes = [];
    }
    return out + wtf8Text(bytes);
  }

  /** The byte of a `bytes`-vocabulary id; throws RangeError for any other id. */
  private byteOf(id: number): number {
    if (Number.isInteger(id) && id >= BYTE_BASE && id < BYTE_VOCAB_SIZE) return id - BYTE_BASE;
    throw new RangeError(`token id ${id} is not in the fixture vocabulary (bytes)`);
  }

  /** The id of one token string as produced by `tokenize` (special tokens included). */
  tokenId(token: string): number {
    const special = SPECIAL_TOKENS[token];
    if (special !== undefined) return special;
    if (this.vocabulary === 'bytes') {
      const hex = BYTE_TOKEN.exec(token)?.[1];
      if (hex !== undefined) return BYTE_BASE + Number.parseInt(hex, 16);
      if (token.length === 1 && token.charCodeAt(0) < 128) return BYTE_BASE + token.charCodeAt(0);
      throw new RangeError(`token ${JSON.stringify(token)} is not a single fixture token (bytes)`);
    }
    const cps = [...token];
    if (cps.length === 1 && token.codePointAt(0)! >= 128)
      return UNICODE_BASE + token.codePointAt(0)!;
    if (cps.length >= 1 && cps.length <= 3 && cps.every((c) => c.codePointAt(0)! < 128)) {
      return asciiChunkId(token);
    }
    throw new RangeError(`token ${JSON.stringify(token)} is not a single fixture token`);
  }

  /** The text of one id (\xNN for a non-ASCII byte); throws RangeError for ids outside the vocabulary. */
  idToToken(id: number): string {
    const special = SPECIAL_BY_ID.get(id);
    if (special !== undefined) return special;
    if (this.vocabulary === 'bytes') {
      const byte = this.byteOf(id);
      return byte < 128 ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
    }
    if (Number.isInteger(id) && id >= ASCII_BASE && id < ASCII_BASE + ASCII_SPAN) {
      return asciiChunkText(id - ASCII_BASE);
    }
    if (Number.isInteger(id) && id >= UNICODE_BASE && id <= UNICODE_BASE + MAX_CODE_POINT) {
      return String.fromCodePoint(id - UNICODE_BASE);
    }
    throw new RangeError(`token id ${id} is not in the fixture vocabulary`);
  }

  /** The UTF-8 bytes one id stands for (a logprob entry's `bytes`). */
  tokenBytes(id: number): number[] {
    if (this.vocabulary === 'bytes' && !SPECIAL_BY_ID.has(id)) return [this.byteOf(id)];
    return [...Buffer.from(this.idToToken(id), 'utf8')];
  }

  /**
   * `ids` cut into the shortest runs that decode to whole characters: one id each in `chunks`; in `bytes`, the
   * bytes of one character together (a byte that starts no complete character stands alone). Streams cut
   * between runs, so no delta splits a character.
   */
  units(ids: readonly number[]): number[][] {
    if (this.vocabulary === 'chunks') return ids.map((id) => [id]);
    const bytes = ids.map((id) => (SPECIAL_BY_ID.has(id) ? 0 : this.byteOf(id)));
    const out: number[][] = [];
    let at = 0;
    while (at < ids.length) {
      const n = SPECIAL_BY_ID.has(ids[at]!) ? 1 : Math.max(1, characterLength(bytes, at));
      out.push(ids.slice(at, at + n));
      at += n;
    }
    return out;
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
