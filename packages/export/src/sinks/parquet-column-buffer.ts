import { ValidationError } from '@arclight/core';

/**
 * One Parquet leaf column of a row group, buffered in typed arrays as rows arrive (no per-value objects), then
 * encoded page by page: repetition/definition levels as RLE runs, values PLAIN. Handles the flat schemas of the
 * token formats: scalars and lists of scalars (standard 3-level LIST), each nullable or not.
 */
export type ScalarKind = 'int32' | 'double' | 'boolean' | 'string';

// Typed-array views are written to the file as they are: PLAIN is little-endian.
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error(
    '@arclight/export: Parquet columns are encoded from typed arrays and need a little-endian CPU',
  );
}

const INITIAL = 1024;

function grown<T extends Uint8Array | Int32Array | Float64Array>(
  array: T,
  used: number,
  need: number,
): T {
  if (need <= array.length) return array;
  let size = array.length * 2;
  while (size < need) size *= 2;
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array.subarray(0, used));
  return next;
}

/** Bytes of a growable byte array (RLE levels, PLAIN strings). */
export class ByteBuffer {
  bytes: Buffer = Buffer.allocUnsafe(INITIAL);
  length = 0;

  reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.bytes.copy(next, 0, 0, this.length);
    this.bytes = next;
  }

  /** A PLAIN BYTE_ARRAY: 4-byte length, then the UTF-8 bytes. */
  utf8(text: string): void {
    this.reserve(4 + text.length * 3);
    const size = this.bytes.write(text, this.length + 4, 'utf8');
    this.int32(size);
    this.length += size;
  }

  /** ULEB128, as RLE run headers are written. */
  varint(value: number): void {
    this.reserve(5);
    let v = value;
    while (v > 0x7f) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  int32(value: number): void {
    this.reserve(4);
    const b = this.bytes;
    const at = this.length;
    b[at] = value & 0xff;
    b[at + 1] = (value >>> 8) & 0xff;
    b[at + 2] = (value >>> 16) & 0xff;
    b[at + 3] = (value >>> 24) & 0xff;
    this.length += 4;
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
}

/**
 * Repetition or definition levels as runs of one value (a list row adds at most two runs), so adding a row and
 * encoding a page cost per run, not per value.
 */
class LevelRuns {
  private values = new Uint8Array(INITIAL);
  /** Level index just past each run. */
  private ends = new Int32Array(INITIAL);
  private runs = 0;

  add(value: number, n: number): void {
    const last = this.runs - 1;
    if (last >= 0 && this.values[last] === value) {
      this.ends[last]! += n;
      return;
    }
    const end = (last >= 0 ? this.ends[last]! : 0) + n;
    if (this.runs === this.values.length) {
      this.values = grown(this.values, this.runs, this.runs + 1);
      this.ends = grown(this.ends, this.runs, this.runs + 1);
    }
    this.values[this.runs] = value;
    this.ends[this.runs++] = end;
  }

  /** Levels `[from, to)` as an RLE-only hybrid stream (bit width ≤ 8), prefixed by its byte length (page v1). */
  encode(out: ByteBuffer, from: number, to: number): void {
    const lengthAt = out.length;
    out.int32(0);
    let lo = 0;
    let hi = this.runs - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! > from) hi = mid;
      else lo = mid + 1;
    }
    let start = from;
    for (let r = lo; r < this.runs && start < to; r++) {
      const end = Math.min(this.ends[r]!, to);
      out.varint((end - start) * 2);
      out.reserve(1);
      out.bytes[out.length++] = this.values[r]!;
      start = end;
    }
    out.bytes.writeInt32LE(out.length - lengthAt - 4, lengthAt);
  }

  reset(): void {
    this.runs = 0;
  }
}

/** A contiguous run of rows encoded as one data page body (uncompressed). */
export interface EncodedPage {
  body: Uint8Array;
  /** Level entries (values including nulls and empty lists): the page header's `num_values`. */
  numValues: number;
}

export class ColumnBuffer {
  /** Definition level of a present value: +1 for a nullable column, +1 for a list's repeated group. */
  readonly maxDefinition: number;
  private rows = 0;
  private entries = 0;
  private count = 0;
  private readonly definitions = new LevelRuns();
  private readonly repetitions = new LevelRuns();
  private ints = new Int32Array(INITIAL);
  private doubles = new Float64Array(INITIAL);
  private flags = new Uint8Array(INITIAL);
  private readonly strings = new ByteBuffer();
  /** Per row: the index of its first level entry and of its first value (byte offset for strings). */
  private rowEntry = new Int32Array(INITIAL);
  private rowValue = new Int32Array(INITIAL);

  constructor(
    readonly name: string,
    readonly kind: ScalarKind,
    readonly list: boolean,
    readonly nullable: boolean,
  ) {
    this.maxDefinition = (nullable ? 1 : 0) + (list ? 1 : 0);
  }

  get rowCount(): number {
    return this.rows;
  }

  /** Bytes of PLAIN values buffered so far (booleans counted as bytes). */
  get valueBytes(): number {
    return this.kind === 'string' ? this.strings.length : this.count * this.width();
  }

  private width(): number {
    return this.kind === 'double' ? 8 : this.kind === 'int32' ? 4 : 1;
  }

  private fail(problem: string): never {
    throw new ValidationError(`parquet column ${this.name}: ${problem}`);
  }

  /** Appends one row's value of this column (`undefined` counts as null). */
  add(value: unknown): void {
    if (this.rows + 1 > this.rowEntry.length) {
      this.rowEntry = grown(this.rowEntry, this.rows, this.rows + 1);
      this.rowValue = grown(this.rowValue, this.rows, this.rows + 1);
    }
    this.rowEntry[this.rows] = this.entries;
    this.rowValue[this.rows] = this.kind === 'string' ? this.strings.length : this.count;
    this.rows++;
    if (value === null || value === undefined) {
      if (!this.nullable) this.fail(`null in a non-nullable column (row ${this.rows - 1})`);
      this.levels(0, 0, 1);
      return;
    }
    if (!this.list) {
      this.levels(this.maxDefinition, 0, 1);
      this.value(value);
      return;
    }
    if (!Array.isArray(value)) this.fail(`expected a list, got ${typeof value}`);
    const n = value.length;
    if (n === 0) {
      this.levels(this.maxDefinition - 1, 0, 1);
      return;
    }
    this.levels(this.maxDefinition, 0, 1);
    if (n > 1) this.levels(this.maxDefinition, 1, n - 1);
    if (this.kind === 'int32') this.intList(value);
    else if (this.kind === 'double') this.doubleList(value);
    else for (const item of value) this.value(item);
  }

  private levels(definition: number, repetition: number, n: number): void {
    if (this.maxDefinition > 0) this.definitions.add(definition, n);
    if (this.list) this.repetitions.add(repetition, n);
    this.entries += n;
  }

  private intList(items: unknown[]): void {
    this.ints = grown(this.ints, this.count, this.count + items.length);
    const ints = this.ints;
    const at = this.count;
    const n = items.length;
    for (let i = 0; i < n; i++) {
      const item = items[i] as number;
      if ((item | 0) !== item) this.fail(`expected 32-bit integers, got ${String(item)}`);
      ints[at + i] = item;
    }
    this.count = at + n;
  }

  private doubleList(items: unknown[]): void {
    this.doubles = grown(this.doubles, this.count, this.count + items.length);
    const doubles = this.doubles;
    const at = this.count;
    const n = items.length;
    for (let i = 0; i < n; i++) {
      const item = items[i];
      if (typeof item !== 'number') this.fail(`expected numbers, got ${typeof item}`);
      doubles[at + i] = item;
    }
    this.count = at + n;
  }

  private value(item: unknown): void {
    switch (this.kind) {
      case 'string': {
        if (typeof item !== 'string') this.fail(`expected a string, got ${typeof item}`);
        this.strings.utf8(item);
        return;
      }
      case 'int32':
        if ((item as number | 0) !== item)
          this.fail(`expected a 32-bit integer, got ${String(item)}`);
        this.ints = grown(this.ints, this.count, this.count + 1);
        this.ints[this.count++] = item as number;
        return;
      case 'double':
        if (typeof item !== 'number') this.fail(`expected a number, got ${typeof item}`);
        this.doubles = grown(this.doubles, this.count, this.count + 1);
        this.doubles[this.count++] = item;
        return;
      case 'boolean':
        if (typeof item !== 'boolean') this.fail(`expected a boolean, got ${typeof item}`);
        this.flags = grown(this.flags, this.count, this.count + 1);
        this.flags[this.count++] = item ? 1 : 0;
        return;
    }
  }

  /** Row boundaries of pages of at most ~`pageBytes` of values (a page holds whole rows, at least one). */
  pageBreaks(pageBytes: number): number[] {
    const breaks = [0];
    const scale = this.kind === 'string' ? 1 : this.width();
    let start = 0;
    for (let row = 1; row < this.rows; row++) {
      if ((this.rowValue[row]! - this.rowValue[start]!) * scale >= pageBytes) {
        breaks.push(row);
        start = row;
      }
    }
    breaks.push(this.rows);
    return breaks;
  }

  /** The data page body (v1: repetition levels, definition levels, PLAIN values) of rows `[from, to)`. */
  encode(from: number, to: number, out: ByteBuffer): EncodedPage {
    out.length = 0;
    const e0 = this.rowEntry[from]!;
    const e1 = to < this.rows ? this.rowEntry[to]! : this.entries;
    const v0 = this.rowValue[from]!;
    const v1 =
      to < this.rows
        ? this.rowValue[to]!
        : this.kind === 'string'
          ? this.strings.length
          : this.count;
    if (this.list) this.repetitions.encode(out, e0, e1);
    if (this.maxDefinition > 0) this.definitions.encode(out, e0, e1);
    switch (this.kind) {
      case 'string':
        out.append(this.strings.bytes.subarray(v0, v1));
        break;
      case 'int32':
        out.append(new Uint8Array(this.ints.buffer, v0 * 4, (v1 - v0) * 4));
        break;
      case 'double':
        out.append(new Uint8Array(this.doubles.buffer, v0 * 8, (v1 - v0) * 8));
        break;
      case 'boolean': {
        const n = v1 - v0;
        out.reserve((n + 7) >> 3);
        const b = out.bytes;
        const at = out.length;
        b.fill(0, at, at + ((n + 7) >> 3));
        for (let i = 0; i < n; i++) {
          if (this.flags[v0 + i]) b[at + (i >> 3)] = (b[at + (i >> 3)] ?? 0) | (1 << (i & 7));
        }
        out.length += (n + 7) >> 3;
        break;
      }
    }
    return { body: out.bytes.subarray(0, out.length), numValues: e1 - e0 };
  }

  /** Empties the buffer for the next row group, keeping its capacity. */
  reset(): void {
    this.rows = 0;
    this.entries = 0;
    this.count = 0;
    this.strings.length = 0;
    this.definitions.reset();
    this.repetitions.reset();
  }
}
