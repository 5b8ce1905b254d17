/**
 * A safe arithmetic evaluator (no `eval`): numbers, `+ - * / %`, `^` or `**` (right-associative), unary signs,
 * parentheses and `sqrt(…)` / `abs(…)`. A recursive-descent parser over a token list; anything else is a
 * `CalculatorError` naming what and where.
 */

export class CalculatorError extends Error {
  override readonly name = 'CalculatorError';
}

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'op'; value: string; at: number }
  | { kind: 'name'; value: string; at: number };

const FUNCTIONS: Readonly<Record<string, (x: number) => number>> = {
  sqrt: Math.sqrt,
  abs: Math.abs,
};

export function evaluate(expression: string): number {
  const parser = new Parser(tokenize(expression), expression);
  const value = parser.parseExpression();
  parser.expectEnd();
  if (!Number.isFinite(value)) throw new CalculatorError(`${expression}: result is not finite`);
  return value;
}

/** The value as the calculator tool reports it: integers exactly, others to 12 significant digits. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(12)));
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (/[0-9.]/.test(ch)) {
      const match = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!match) throw new CalculatorError(`unexpected '${ch}' at ${i}`);
      tokens.push({ kind: 'number', value: Number(match[0]), at: i });
      i += match[0].length;
    } else if (text.startsWith('**', i)) {
      tokens.push({ kind: 'op', value: '^', at: i });
      i += 2;
    } else if ('+-*/%^()'.includes(ch)) {
      tokens.push({ kind: 'op', value: ch, at: i });
      i += 1;
    } else if (/[a-z]/i.test(ch)) {
      const name = /^[a-z]+/i.exec(text.slice(i))![0];
      tokens.push({ kind: 'name', value: name.toLowerCase(), at: i });
      i += name.length;
    } else {
      throw new CalculatorError(`unexpected '${ch}' at ${i}`);
    }
  }
  return tokens;
}

class Parser {
  private position = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly source: string,
  ) {}

  parseExpression(): number {
    let value = this.parseTerm();
    for (let op = this.peekOp(); op === '+' || op === '-'; op = this.peekOp()) {
      this.position += 1;
      const right = this.parseTerm();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  expectEnd(): void {
    const token = this.tokens[this.position];
    if (token) throw new CalculatorError(`unexpected '${token.value}' at ${token.at}`);
  }

  private parseTerm(): number {
    let value = this.parseUnary();
    for (let op = this.peekOp(); op === '*' || op === '/' || op === '%'; op = this.peekOp()) {
      const at = this.tokens[this.position]!.at;
      this.position += 1;
      const right = this.parseUnary();
      if ((op === '/' || op === '%') && right === 0) {
        throw new CalculatorError(`division by zero at ${at}`);
      }
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  private parseUnary(): number {
    const op = this.peekOp();
    if (op === '+' || op === '-') {
      this.position += 1;
      const value = this.parseUnary();
      return op === '-' ? -value : value;
    }
    return this.parsePower();
  }

  private parsePower(): number {
    const base = this.parsePrimary();
    if (this.peekOp() !== '^') return base;
    this.position += 1;
    return base ** this.parseUnary();
  }

  private parsePrimary(): number {
    const token = this.tokens[this.position];
    if (!token) throw new CalculatorError(`${this.source}: unexpected end of expression`);
    this.position += 1;
    if (token.kind === 'number') return token.value;
    if (token.kind === 'name') {
      const fn = FUNCTIONS[token.value];
      if (!fn) throw new CalculatorError(`unknown function '${token.value}' at ${token.at}`);
      return fn(this.parseParenthesized());
    }
    if (token.value === '(') {
      this.position -= 1;
      return this.parseParenthesized();
    }
    throw new CalculatorError(`unexpected '${token.value}' at ${token.at}`);
  }

  private parseParenthesized(): number {
    const open = this.tokens[this.position];
    if (open?.value !== '(') {
      throw new CalculatorError(`expected '(' at ${open?.at ?? this.source.length}`);
    }
    this.position += 1;
    const value = this.parseExpression();
    const close = this.tokens[this.position];
    if (close?.value !== ')') {
      throw new CalculatorError(`expected ')' at ${close?.at ?? this.source.length}`);
    }
    this.position += 1;
    return value;
  }

  private peekOp(): string | undefined {
    const token = this.tokens[this.position];
    return token?.kind === 'op' ? token.value : undefined;
  }
}
