import { ValidationError } from '../errors.js';

/** A parsed Python format spec: `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`. */
interface FormatSpec {
  fill: string;
  align: '<' | '>' | '=' | '^' | '';
  sign: '+' | '-' | ' ';
  coerceZero: boolean;
  alternate: boolean;
  width: number;
  grouping: ',' | '_' | '';
  precision: number | null;
  type: string;
}

const SPEC_PATTERN =
  /^(?:(?<fill>[\s\S])?(?<align>[<>=^]))?(?<sign>[-+ ])?(?<z>z)?(?<alt>#)?(?<zero>0)?(?<width>\d+)?(?<grouping>[,_])?(?:\.(?<precision>\d+))?(?<type>[bcdeEfFgGnosxX%])?$/;

function parseSpec(spec: string, field: string): FormatSpec {
  const groups = SPEC_PATTERN.exec(spec)?.groups;
  if (!groups)
    throw new ValidationError(`PromptTemplate: invalid format specifier "${spec}" in "{${field}}"`);
  const zero = groups.zero !== undefined && groups.align === undefined;
  return {
    fill: groups.fill ?? (zero ? '0' : ' '),
    align: (groups.align as FormatSpec['align'] | undefined) ?? (zero ? '=' : ''),
    sign: (groups.sign as FormatSpec['sign'] | undefined) ?? '-',
    coerceZero: groups.z !== undefined,
    alternate: groups.alt !== undefined,
    width: groups.width === undefined ? 0 : Number(groups.width),
    grouping: (groups.grouping as FormatSpec['grouping'] | undefined) ?? '',
    precision: groups.precision === undefined ? null : Number(groups.precision),
    type: groups.type ?? '',
  };
}

function pad(prefix: string, body: string, spec: FormatSpec, defaultAlign: '<' | '>'): string {
  const missing = spec.width - prefix.length - body.length;
  if (missing <= 0) return prefix + body;
  const fill = (n: number) => spec.fill.repeat(n);
  switch (spec.align || defaultAlign) {
    case '<':
      return prefix + body + fill(missing);
    case '^':
      return fill(Math.floor(missing / 2)) + prefix + body + fill(Math.ceil(missing / 2));
    case '=':
      return prefix + fill(missing) + body;
    default:
      return fill(missing) + prefix + body;
  }
}

function group(digits: string, separator: string, size: number): string {
  let out = '';
  for (let end = digits.length; end > 0; end -= size) {
    const start = Math.max(0, end - size);
    out = digits.slice(start, end) + (out === '' ? '' : separator + out);
  }
  return out;
}

function withExponentDigits(text: string): string {
  // Python prints at least two exponent digits: 1.5e+00.
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function stripTrailingZeros(text: string): string {
  const [mantissa = '', exponent] = text.split('e');
  const stripped = mantissa.includes('.')
    ? mantissa.replace(/0+$/, '').replace(/\.$/, '')
    : mantissa;
  return exponent === undefined ? stripped : `${stripped}e${exponent}`;
}

/** Python's `g`: fixed or scientific notation depending on the exponent, trailing zeros removed. */
function formatGeneral(magnitude: number, precision: number, alternate: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const exponent = Number(magnitude.toExponential(p - 1).split('e')[1]);
  const text =
    exponent >= -4 && exponent < p
      ? magnitude.toFixed(p - 1 - exponent)
      : withExponentDigits(magnitude.toExponential(p - 1));
  return alternate ? text : stripTrailingZeros(text);
}

function formatMagnitude(magnitude: number, spec: FormatSpec, field: string): [string, string] {
  const { type, precision, alternate } = spec;
  if (!Number.isFinite(magnitude)) {
    const word = Number.isNaN(magnitude) ? 'nan' : 'inf';
    return ['', /[EFG]/.test(type) ? word.toUpperCase() : word];
  }
  if (type !== '' && 'bcdoxX'.includes(type) && !Number.isInteger(magnitude)) {
    throw new ValidationError(
      `PromptTemplate: format code "${type}" needs an integer in "{${field}}"`,
    );
  }
  switch (type) {
    case 'b':
      return [alternate ? '0b' : '', magnitude.toString(2)];
    case 'o':
      return [alternate ? '0o' : '', magnitude.toString(8)];
    case 'x':
      return [alternate ? '0x' : '', magnitude.toString(16)];
    case 'X':
      return [alternate ? '0X' : '', magnitude.toString(16).toUpperCase()];
    case 'c':
      return ['', String.fromCodePoint(magnitude)];
    case 'd':
      return ['', String(magnitude)];
    case 'f':
    case 'F':
      return ['', magnitude.toFixed(precision ?? 6)];
    case 'e':
    case 'E': {
      const text = withExponentDigits(magnitude.toExponential(precision ?? 6));
      return ['', type === 'E' ? text.toUpperCase() : text];
    }
    case 'n':
      if (Number.isInteger(magnitude)) return ['', String(magnitude)];
      return ['', formatGeneral(magnitude, precision ?? 6, alternate)];
    case 'g':
    case 'G': {
      const text = formatGeneral(magnitude, precision ?? 6, alternate);
      return ['', type === 'G' ? text.toUpperCase() : text];
    }
    case '%':
      return ['', `${(magnitude * 100).toFixed(precision ?? 6)}%`];
    default:
      if (precision !== null) return ['', formatGeneral(magnitude, precision, alternate)];
      return ['', String(magnitude)];
  }
}

function formatNumber(value: number, spec: FormatSpec, field: string): string {
  const negative = value < 0 || (Object.is(value, -0) && !spec.coerceZero);
  const [radixPrefix, rawBody] = formatMagnitude(Math.abs(value), spec, field);
  let body = rawBody;
  if (spec.grouping !== '') {
    const size = spec.type !== '' && 'boxX'.includes(spec.type) ? 4 : 3;
    const end = body.search(/[.e%]/);
    const intEnd = end < 0 ? body.length : end;
    body = group(body.slice(0, intEnd), spec.grouping, size) + body.slice(intEnd);
  }
  const signText = negative ? '-' : spec.sign === '-' ? '' : spec.sign;
  return pad(signText + radixPrefix, body, spec, '>');
}

/**
 * Python `format(value, spec)` (the `str.format` mini-language) for numbers; any other value is formatted
 * as its rendered string. Booleans count as numbers only under a numeric presentation type, as in Python.
 */
export function applyFormatSpec(
  value: unknown,
  rendered: string,
  spec: string,
  field: string,
): string {
  if (spec === '') return rendered;
  const parsed = parseSpec(spec, field);
  const numeric = typeof value === 'number' || (typeof value === 'boolean' && parsed.type !== '');
  if (numeric || (parsed.type !== '' && parsed.type !== 's')) {
    if (numeric && parsed.type !== 's') return formatNumber(Number(value), parsed, field);
    throw new ValidationError(
      `PromptTemplate: format code "${parsed.type}" cannot format a ${typeof value} in "{${field}}"`,
    );
  }
  if (parsed.sign !== '-' || parsed.alternate || parsed.grouping !== '' || parsed.align === '=') {
    throw new ValidationError(
      `PromptTemplate: format specifier "${spec}" is for numbers, in "{${field}}"`,
    );
  }
  const text = parsed.precision === null ? rendered : rendered.slice(0, parsed.precision);
  return pad('', text, parsed, '<');
}
