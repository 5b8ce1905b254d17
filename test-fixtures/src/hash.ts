// Deterministic hashing helpers: canonical JSON (sorted keys), SHA-256 and a 32-bit FNV-1a.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted recursively; `dropNulls` also omits null/undefined object members. */
export function canonicalJson(value: unknown, dropNulls = false): string {
  return JSON.stringify(sortKeys(value, dropNulls));
}

function sortKeys(value: unknown, dropNulls: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, dropNulls));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (dropNulls && (v === null || v === undefined)) continue;
    out[key] = sortKeys(v, dropNulls);
  }
  return out;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic id: prefix + 24 hex characters derived from the seed parts. */
export function deterministicId(prefix: string, ...seed: (string | number)[]): string {
  return prefix + sha256Hex(seed.join('\u0000')).slice(0, 24);
}
