import type { OtlpJsonValue } from './model.js';

const HEX = /^[0-9a-fA-F]*$/;

export function bytesToHex(bytes: Uint8Array | readonly number[] | undefined): string {
  if (bytes === undefined) return '';
  if (!(bytes instanceof Uint8Array)) return Buffer.from(bytes).toString('hex');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Upstream `_bytes_to_trace_id_hex` / `_bytes_to_span_id_hex`: empty → all zeros, else left-padded hex. */
export function idHex(hex: string, width: number): string {
  return hex === '' ? '0'.repeat(width) : hex.toLowerCase().padStart(width, '0');
}

export const isHex = (text: string): boolean => HEX.test(text) && text.length % 2 === 0;

/** A 64-bit integer as protobufjs (number or Long-like) or OTLP/JSON (decimal string or number) gives it. */
export function toBigInt(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    return /^[-+]?\d+$/.test(text) ? BigInt(text) : undefined;
  }
  if (typeof value === 'object') {
    const long = value as { low?: unknown; high?: unknown; unsigned?: unknown };
    if (typeof long.low === 'number' && typeof long.high === 'number') {
      const low = BigInt(long.low >>> 0);
      const high = BigInt(long.high >>> 0);
      const unsigned = (high << 32n) | low;
      return long.unsigned === true ? unsigned : BigInt.asIntN(64, unsigned);
    }
  }
  return undefined;
}

/** An int64 attribute as JSON: a number when exactly representable, else its decimal string. */
export function int64ToJson(value: bigint): OtlpJsonValue {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

/** Upstream `convert_timestamp` for nanoseconds: 0 → null, > 1e12 → seconds, else unchanged. */
export function nanosToSeconds(nanos: bigint): number | null {
  if (nanos === 0n) return null;
  if (nanos <= 1_000_000_000_000n) return Number(nanos);
  return Number(nanos / 1_000_000_000n) + Number(nanos % 1_000_000_000n) / 1e9;
}

/** A double attribute as JSON: JSON has no NaN/Infinity, so those become the strings 'NaN', 'Infinity', '-Infinity'. */
export const doubleToJson = (value: number): OtlpJsonValue =>
  Number.isFinite(value) ? value : String(value);

/** Sets `key` as an own data property, so that a `__proto__` key cannot replace the object's prototype. */
export { defineKey as setOwn } from '@arclight/core';
