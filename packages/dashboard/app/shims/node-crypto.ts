/**
 * Stands in for `node:crypto` in the browser bundle. `@arclight/core`'s id helpers (used by the adapter for
 * virtual spans) fill a `Buffer` pool with `randomFillSync` at load time; here the pool is a byte array that
 * can print itself as hex, and the random bytes come from the Web Crypto API.
 */
class HexBytes extends Uint8Array {
  static allocUnsafe(size: number): HexBytes {
    return new HexBytes(size);
  }

  override toString(encoding?: string, start = 0, end = this.length): string {
    if (encoding !== 'hex') return super.toString();
    let out = '';
    for (let i = start; i < end; i++) out += this[i]!.toString(16).padStart(2, '0');
    return out;
  }
}

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= HexBytes;

export function randomFillSync<T extends ArrayBufferView>(buffer: T): T {
  crypto.getRandomValues(buffer as unknown as Uint8Array<ArrayBuffer>);
  return buffer;
}

export function createHash(): never {
  throw new Error('node:crypto createHash is not available in the browser');
}
