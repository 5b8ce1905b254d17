/**
 * A small protobuf writer for OTLP's trace messages, in one pass: a length-delimited field reserves one byte
 * for its length and moves its content when the length needs more (every length is a minimal varint, as any
 * protobuf encoder writes it). The buffer is reused across messages; `finish()` returns a copy.
 */
export class OtlpWriter {
  private buffer = new Uint8Array(64 * 1024);
  private view = new DataView(this.buffer.buffer);
  pos = 0;

  /** Starts a new message (the buffer is kept). */
  reset(): void {
    this.pos = 0;
  }

  /** The message written since `reset()`, copied out. */
  finish(): Uint8Array {
    return this.buffer.slice(0, this.pos);
  }

  private ensure(extra: number): void {
    const needed = this.pos + extra;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.pos));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  tag(field: number, wireType: number): void {
    this.uint32((field << 3) | wireType);
  }

  /** A varint field (wire type 0) of a value in [0, 2^32). */
  varintField(field: number, value: number): void {
    this.tag(field, 0);
    this.uint32(value);
  }

  /** A string field (wire type 2). */
  stringField(field: number, text: string): void {
    this.tag(field, 2);
    this.string(text);
  }

  /** A varint of a value in [0, 2^32). */
  uint32(value: number): void {
    this.ensure(5);
    let v = value >>> 0;
    while (v > 127) {
      this.buffer[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buffer[this.pos++] = v;
  }

  /** A varint of an integer: negative ones as 64-bit two's complement (10 bytes). */
  int64(value: number): void {
    if (value >= 0 && value <= 0xffffffff) {
      this.uint32(value);
      return;
    }
    const magnitude = Math.abs(value);
    let low = magnitude >>> 0;
    let high = (magnitude / 0x1_0000_0000) >>> 0;
    if (value < 0) {
      low = (~low + 1) >>> 0;
      high = low === 0 ? (~high + 1) >>> 0 : ~high >>> 0;
    }
    this.ensure(10);
    while (high > 0 || low > 127) {
      this.buffer[this.pos++] = (low & 127) | 128;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    this.buffer[this.pos++] = low;
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, value >>> 0, true);
    this.pos += 4;
  }

  /** Epoch seconds (whole) and nanoseconds → fixed64 nanoseconds since the epoch, exact. */
  fixed64Nanos(seconds: number, nanos: number): void {
    // seconds = upper · 2^16 + lower; all partial products stay below 2^53.
    const lower = seconds % 65536;
    const upper = (seconds - lower) / 65536;
    const upperNanos = upper * 1e9; // contributes upperNanos · 2^16
    const lowSum = (upperNanos % 65536) * 65536 + lower * 1e9 + nanos;
    const low = lowSum % 0x1_0000_0000;
    const high = Math.floor(upperNanos / 65536) + (lowSum - low) / 0x1_0000_0000;
    this.ensure(8);
    this.view.setUint32(this.pos, low, true);
    this.view.setUint32(this.pos + 4, high >>> 0, true);
    this.pos += 8;
  }

  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  string(text: string): void {
    const length = text.length;
    let ascii = true;
    for (let i = 0; i < length; i++) {
      if (text.charCodeAt(i) > 127) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      this.uint32(length);
      this.ensure(length);
      for (let i = 0; i < length; i++) this.buffer[this.pos++] = text.charCodeAt(i);
      return;
    }
    const bytes = encoder.encode(text);
    this.bytes(bytes);
  }

  bytes(bytes: Uint8Array): void {
    this.uint32(bytes.length);
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** An id given as hex (two characters per byte), written as bytes. */
  hexBytes(hex: string): void {
    const length = hex.length >> 1;
    this.uint32(length);
    this.ensure(length);
    for (let i = 0; i < length; i++) {
      this.buffer[this.pos++] =
        (hexDigit(hex.charCodeAt(2 * i)) << 4) | hexDigit(hex.charCodeAt(2 * i + 1));
    }
  }

  /** Opens a length-delimited field's content (the tag is written by the caller); pass the result to `close`. */
  open(): number {
    this.ensure(1);
    return this.pos++;
  }

  close(start: number): void {
    const length = this.pos - start - 1;
    if (length < 128) {
      this.buffer[start] = length;
      return;
    }
    let size = 1;
    for (let v = length >>> 7; v > 0; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buffer.copyWithin(start + size, start + 1, this.pos);
    this.pos += size - 1;
    let at = start;
    let v = length;
    while (v > 127) {
      this.buffer[at++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buffer[at] = v;
  }
}

const encoder = new TextEncoder();

/** A hex digit's value (lowercase and uppercase). */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return code - 55;
}
