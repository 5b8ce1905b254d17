// UTF-8 for every JavaScript string: lone surrogates, which UTF-8 cannot carry, are written as the three bytes
// their code unit would take (WTF-8), so bytes → string gives back the exact string. Used by the fixture
// tokenizer's `bytes` vocabulary.

/** The bytes of `text` (UTF-8; a lone surrogate as its 3-byte WTF-8 sequence). */
export function wtf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000)
      out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else
      out.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      );
  }
  return out;
}

/** Length of the sequence a lead byte starts (1 for ASCII and for bytes that cannot start one). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/**
 * The length of the complete character starting at `bytes[at]`, or 0 when the bytes there do not form one
 * (a stray continuation byte, a lead byte cut short).
 */
export function characterLength(bytes: readonly number[], at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  if (isContinuation(lead)) return 0;
  const n = sequenceLength(lead);
  if (n === 1) return 0;
  for (let k = 1; k < n; k++) if (!isContinuation(bytes[at + k])) return 0;
  return codePointAt(bytes, at, n) > 0x10ffff ? 0 : n;
}

function codePointAt(bytes: readonly number[], at: number, n: number): number {
  const lead = bytes[at]!;
  let cp = n === 1 ? lead : lead & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[at + k]! & 0x3f);
  return cp;
}

/** The string of `bytes`; bytes that form no complete character decode to U+FFFD each. */
export function wtf8Text(bytes: readonly number[]): string {
  let out = '';
  let at = 0;
  while (at < bytes.length) {
    const n = characterLength(bytes, at);
    if (n === 0) {
      out += '\ufffd';
      at += 1;
      continue;
    }
    const cp = codePointAt(bytes, at, n);
    out += cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
    at += n;
  }
  return out;
}
