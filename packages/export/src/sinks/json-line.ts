/** Lists shorter than this are not remembered as prefixes (the check would cost more than it saves). */
const MIN_PREFIX = 16;
/** Decimal places tried by the fast path for non-integers (`-0.25`, `0.5`: short decimals). */
const MAX_DECIMALS = 8;
const POW10 = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) => 10 ** d);
/** Below this magnitude `JSON.stringify` writes an exponent (`1e-7`): left to it. */
const MIN_DECIMAL = 1e-6;
const INT32_LIMIT = 2 ** 31;
/** Runs of mask flags shorter than this are written byte by byte (a native copy costs more). */
const SHORT_RUN = 16;
/** Constant pieces up to this long are copied byte by byte (see `raw`). */
const SHORT_RAW = 8;
/** Text up to this long is copied char by char when it is ASCII (see `text`). */
const SHORT_TEXT = 64;
/** Room one number takes at most on the fast path: `-`, 10 digits, `.`, 8 places, `,`. */
const MAX_NUMBER_BYTES = 21;

/** Where a line's bytes go: the sink's open chunk, replaced when a piece does not fit. */
export interface LineBuffer {
  bytes: Buffer;
  /** Next free byte. */
  used: number;
  /** Makes room for `n` more bytes of the current line (may swap `bytes`, keeping the line's start). */
  reserve(n: number): void;
}

/**
 * Writes the JSON text of a row straight into the sink's buffer, byte-identical to `JSON.stringify(row)` but
 * faster for the bulk of the token formats: lists of numbers.
 *
 * - `ints(list)`: int32 values are written digit by digit (about twice as fast as `JSON.stringify`, which goes
 *   through its generic number path, and with no string in between); `-0` is written `0` as `JSON.stringify`
 *   does. A list with anything else (integers beyond int32, non-integers, holes, non-numbers, a non-array) is
 *   written by `JSON.stringify(list)` instead, so the text is always the same.
 * - `ints(list, true)` also remembers the list's text, and a later list that starts with it reuses those bytes
 *   (the elements are compared, never assumed): an agent's prompts grow turn by turn, so the calls of a rollout
 *   share their prompt's prefix, and per-call rows (`verl-jsonl`, `triplets`) would otherwise convert the same
 *   ids again for every later call.
 * - `numbers(list)`: like `ints`, plus non-integers that are short decimals (at most `MAX_DECIMALS` places, at
 *   most 9 digits, magnitude ≥ 1e-6: e.g. `-0.25`, `0.125`), written as `JSON.stringify` does (the shortest
 *   text that reads back as the same double: with so few digits there is exactly one). A list with any other
 *   value (engine logprobs usually have 17 significant digits) is written by `JSON.stringify(list)`: its
 *   shortest round-trip conversion is what costs there, and JavaScript cannot do it faster.
 * - `mask(list)`: a list of 0/1 flags, copied run by run from pre-rendered text; `ints` for anything else.
 * - `number(v)`, `string(s)`, `raw(bytes)`: one number (as `numbers` writes an element), one string (printable
 *   ASCII copied, anything else escaped by `JSON.stringify`), constant bytes: for line writers of rows with many
 *   small members (`art`'s per-token logprob objects).
 * - `value(v)`: `JSON.stringify(v)` as a string, for composing the other members. A value `JSON.stringify`
 *   treats specially as an object member (`undefined`, a function, a symbol: the key is left out; an object
 *   with `toJSON`: called with the key) marks the line unsafe: the sink then rewrites it as
 *   `JSON.stringify(row)`.
 */
export class JsonLine {
  #out: LineBuffer;
  #prefix = new Int32Array(1024);
  #prefixLength = 0;
  /** UTF-8 of the remembered list's text, without its closing `]` (the first `#prefixByteLength` bytes). */
  #prefixBytes = new Uint8Array(1 << 14);
  #prefixByteLength = 0;
  /** `0,0,0,…` and `1,1,1,…`, copied by `mask` (grown on demand). */
  #flags: Buffer[] = [flagText(0, 2048), flagText(1, 2048)];
  /** Set by `value` when the line must be written by `JSON.stringify(row)` instead. */
  unsafe = false;

  constructor(out: LineBuffer) {
    this.#out = out;
  }

  /** `JSON.stringify(value)`, marking the line unsafe when the value is not a plain member (see the class). */
  value(value: unknown): string {
    const text = JSON.stringify(value);
    if (text === undefined) {
      this.unsafe = true;
      return '';
    }
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ) {
      this.unsafe = true;
    }
    return text;
  }

  /** `"key":value,…` of `keys` in `record`, in that order (values through `value`; keys are plain identifiers). */
  members<T extends object>(record: T, keys: readonly (keyof T & string)[]): string {
    let text = '';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      text += `${i === 0 ? '"' : ',"'}${key}":${this.value(record[key])}`;
    }
    return text;
  }

  /**
   * Appends `text` (UTF-8). Short ASCII text (the keys and punctuation between members) is copied in a loop:
   * `Buffer.write` is a native call whose set-up costs more than a few dozen bytes.
   */
  text(text: string): void {
    const out = this.#out;
    const n = text.length;
    out.reserve(n * 3);
    if (n <= SHORT_TEXT) {
      const b = out.bytes;
      const start = out.used;
      let p = start;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) {
          p = -1;
          break;
        }
        b[p++] = c;
      }
      if (p >= 0) {
        out.used = p;
        return;
      }
    }
    out.used += out.bytes.write(text, out.used, 'utf8');
  }

  /** Appends the JSON text of a list of integers (ids, masks); see the class comment. */
  ints(list: readonly number[], remember = false): void {
    if (!Array.isArray(list)) {
      this.text(this.value(list));
      return;
    }
    const out = this.#out;
    const n = list.length;
    const m = this.#prefixLength;
    const continues = remember && m > 0 && n >= m && this.#startsWithPrefix(list, m);
    // Room first: `reserve` may move the line to another buffer.
    const prefixBytes = this.#prefixByteLength;
    out.reserve(continues ? prefixBytes + (n - m) * 12 + 1 : n * 12 + 2);
    const start = out.used;
    let from = 0;
    if (continues) {
      out.bytes.set(this.#prefixBytes.subarray(0, prefixBytes), start);
      out.used += prefixBytes;
      from = m;
    } else {
      out.bytes[out.used++] = 0x5b; // [
    }
    if (!this.#digits(list, from, n)) {
      out.used = start;
      this.text(JSON.stringify(list));
      return;
    }
    out.bytes[out.used++] = 0x5d; // ]
    if (remember && (from > 0 || n >= MIN_PREFIX)) this.#remember(list, start);
  }

  /**
   * Appends the JSON text of a list of 0/1 flags (loss masks), run by run: each run of equal flags is copied from
   * a pre-rendered `0,0,0,…` / `1,1,1,…` (a mask is a few long runs: prompt, observations, responses). A list
   * with anything else is written by `ints`.
   */
  mask(list: readonly number[]): void {
    if (!Array.isArray(list)) {
      this.text(this.value(list));
      return;
    }
    const out = this.#out;
    const n = list.length;
    out.reserve(2 * n + 2);
    if (this.#flags[0]!.length < 2 * n) this.#flags = [flagText(0, 2 * n), flagText(1, 2 * n)];
    const b = out.bytes;
    const start = out.used;
    let p = start;
    b[p++] = 0x5b; // [
    let i = 0;
    while (i < n) {
      const flag = list[i];
      if (flag !== 0 && flag !== 1) {
        out.used = start;
        this.ints(list);
        return;
      }
      let j = i + 1;
      while (j < n && list[j] === flag) j++;
      if (j - i < SHORT_RUN) {
        for (; i < j; i++) {
          b[p++] = 48 + flag;
          b[p++] = 0x2c; // ,
        }
      } else {
        p += this.#flags[flag]!.copy(b, p, 0, 2 * (j - i));
        i = j;
      }
    }
    if (n > 0) p--; // the last run's trailing comma
    b[p++] = 0x5d; // ]
    out.used = p;
  }

  /** Appends the JSON text of a list of numbers (logprobs); see the class comment. */
  numbers(list: readonly number[] | null): void {
    if (!Array.isArray(list)) {
      this.text(this.value(list));
      return;
    }
    const out = this.#out;
    const n = list.length;
    out.reserve(n * MAX_NUMBER_BYTES + 2);
    const start = out.used;
    const b = out.bytes;
    let p = start;
    b[p++] = 0x5b; // [
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item !== 'number') {
        this.#stringified(list, start);
        return;
      }
      if (i !== 0) b[p++] = 0x2c; // ,
      p = (item | 0) === item ? writeInt(b, p, item) : writeShortNumber(b, p, item);
      if (p < 0) {
        this.#stringified(list, start);
        return;
      }
    }
    b[p++] = 0x5d; // ]
    out.used = p;
  }

  /** Appends the JSON text of one number, as `numbers` writes each element (`JSON.stringify` for the rest). */
  number(value: number): void {
    const out = this.#out;
    out.reserve(MAX_NUMBER_BYTES);
    const p = typeof value === 'number' ? writeShortNumber(out.bytes, out.used, value) : -1;
    if (p < 0) this.text(this.value(value));
    else out.used = p;
  }

  /**
   * Appends the JSON text of a string: printable ASCII without `"` or `\\` byte by byte (most token and id
   * strings), anything else (escapes, non-ASCII, lone surrogates, non-strings) through `value`.
   */
  string(value: string): void {
    if (typeof value !== 'string') {
      this.text(this.value(value));
      return;
    }
    const out = this.#out;
    const n = value.length;
    out.reserve(n + 2);
    const b = out.bytes;
    let p = out.used;
    b[p++] = 0x22; // "
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.text(JSON.stringify(value));
        return;
      }
      b[p++] = c;
    }
    b[p++] = 0x22;
    out.used = p;
  }

  /** Appends bytes already encoded (constant pieces of a line, e.g. `Buffer.from('{"key":')`). */
  raw(bytes: Uint8Array): void {
    const out = this.#out;
    const n = bytes.length;
    out.reserve(n);
    const b = out.bytes;
    let p = out.used;
    if (n > SHORT_RAW) {
      b.set(bytes, p); // native copy: faster than the loop from ~10 bytes on (measured on Node 24)
      p += n;
    } else for (let i = 0; i < n; i++) b[p++] = bytes[i]!;
    out.used = p;
  }

  #stringified(list: readonly number[], start: number): void {
    this.#out.used = start;
    this.text(JSON.stringify(list));
  }

  #startsWithPrefix(list: readonly number[], m: number): boolean {
    const prefix = this.#prefix;
    for (let i = 0; i < m; i++) if (list[i] !== prefix[i]) return false;
    return true;
  }

  /** Called only after `#digits` accepted every element (all int32); the text starts at `start`. */
  #remember(list: readonly number[], start: number): void {
    const n = list.length;
    if (this.#prefix.length < n) this.#prefix = new Int32Array(n * 2);
    const prefix = this.#prefix;
    for (let i = 0; i < n; i++) prefix[i] = list[i]!;
    this.#prefixLength = n;
    // Copied: the buffer's bytes are handed to the file and the buffer replaced.
    const out = this.#out;
    const length = out.used - 1 - start;
    if (this.#prefixBytes.length < length) this.#prefixBytes = new Uint8Array(length * 2);
    out.bytes.copy(this.#prefixBytes, 0, start, out.used - 1);
    this.#prefixByteLength = length;
  }

  /** Appends elements `from..n` (a comma before each but the list's first); false at a non-int32 element. */
  #digits(list: readonly number[], from: number, n: number): boolean {
    const out = this.#out;
    const b = out.bytes;
    let p = out.used;
    for (let i = from; i < n; i++) {
      const item = list[i];
      if (typeof item !== 'number' || (item | 0) !== item) return false;
      if (i !== 0) b[p++] = 0x2c; // ,
      p = writeInt(b, p, item);
    }
    out.used = p;
    return true;
  }
}

/** `flag,flag,…` (each followed by a comma), `length` bytes. */
function flagText(flag: 0 | 1, length: number): Buffer {
  return Buffer.from(`${flag},`.repeat(Math.ceil(length / 2)), 'latin1');
}

/**
 * Writes an int32, or a short decimal (at most `MAX_DECIMALS` places and 9 digits, magnitude ≥ 1e-6), as
 * `JSON.stringify` does; returns the next position, or -1 for any other number (nothing written that counts).
 */
function writeShortNumber(b: Buffer, start: number, item: number): number {
  if ((item | 0) === item) return writeInt(b, start, item);
  // A short decimal: the fewest places d with item = ±m / 10^d exactly (m < 10^9: one such text at most).
  const a = item < 0 ? -item : item;
  if (!(a >= MIN_DECIMAL && a < INT32_LIMIT)) return -1;
  let d = 1;
  let m = 0;
  for (; d <= MAX_DECIMALS; d++) {
    m = Math.round(a * POW10[d]!);
    if (m / POW10[d]! === a) break;
  }
  if (d > MAX_DECIMALS || m >= 1e9) return -1;
  let p = start;
  if (item < 0) b[p++] = 0x2d; // -
  const whole = Math.floor(m / POW10[d]!);
  p = writeInt(b, p, whole);
  b[p++] = 0x2e; // .
  let fraction = m - whole * POW10[d]!;
  let q = p + d;
  p = q;
  for (let k = 0; k < d; k++) {
    const t = Math.floor(fraction / 10);
    b[--q] = 48 + fraction - t * 10;
    fraction = t;
  }
  return p;
}

/** Writes an int32 (or a non-negative integer up to 2^31) in decimal at `p`; returns the next position. */
function writeInt(b: Buffer, p: number, value: number): number {
  let v = value;
  if (v < 0) {
    b[p++] = 0x2d; // -
    v = -v; // at most 2^31: exact, and `(v / 10) | 0` below stays in range
  }
  if (v < 10) {
    b[p++] = 48 + v; // also -0 → "0", as JSON.stringify writes it
    return p;
  }
  const digits =
    v < 100
      ? 2
      : v < 1000
        ? 3
        : v < 10000
          ? 4
          : v < 100000
            ? 5
            : v < 1000000
              ? 6
              : v < 10000000
                ? 7
                : v < 100000000
                  ? 8
                  : v < 1000000000
                    ? 9
                    : 10;
  const end = p + digits;
  let q = end;
  while (v >= 10) {
    const t = (v / 10) | 0;
    b[--q] = 48 + v - t * 10;
    v = t;
  }
  b[--q] = 48 + v;
  return end;
}
