/** Strings JSON.stringify escapes or encodes specially, and plain ones the fast paths copy. */
export const TRICKY_STRINGS: readonly string[] = [
  '',
  'token_id:151643',
  'plain ASCII with spaces ~!',
  'quote " and backslash \\ and slash /',
  'control \u0000\u0001\b\f\n\r\t\u001f and DEL \u007f',
  'é ü ß 中文 €',
  'emoji 😀 (a surrogate pair)',
  'lone high \ud800 and lone low \udfff surrogates',
  'line separators \u2028 \u2029',
  'Ġhello',
  '\u00a0',
];
