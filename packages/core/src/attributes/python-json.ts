/**
 * Python's `json.loads`: standard JSON plus the bare constants `NaN`, `Infinity` and `-Infinity` that Python's
 * `json.dumps` writes for non-finite floats (upstream attributes such as `logprobs.content` can carry them).
 * Throws `SyntaxError` where `json.loads` raises `JSONDecodeError`.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
    return parseWithConstants(text);
  }
}

const CONSTANTS: ReadonlyArray<readonly [string, number]> = [
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['NaN', Number.NaN],
];

/** Replaces the constants outside strings with unique placeholder strings, then revives them. */
function parseWithConstants(text: string): unknown {
  const tag = `\u0000pyjson-${Math.random().toString(36).slice(2)}:`;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const constant = CONSTANTS.find(([name]) => text.startsWith(name, i));
    if (constant) {
      out += JSON.stringify(tag + constant[0]);
      i += constant[0].length - 1;
      continue;
    }
    out += ch;
  }
  const values = new Map(CONSTANTS.map(([name, value]) => [tag + name, value]));
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && values.has(value) ? values.get(value) : value,
  );
}
