import { describe, expect, it } from 'vitest';
import { extractAnswer, reward } from '../src/answer.js';
import { CalculatorError, evaluate, formatNumber } from '../src/calculator.js';

describe('calculator', () => {
  it.each([
    ['1+2*3', 7],
    ['(1+2)*3', 9],
    ['2^3^2', 512],
    ['2**3', 8],
    ['-3^2', -9],
    ['--4 + +1', 5],
    ['7 % 4', 3],
    ['10/4', 2.5],
    ['sqrt(16) + abs(-2)', 6],
    ['.5 + 1e2', 100.5],
    ['(17+23+35)/3', 25],
  ])('evaluates %s', (expression, value) => {
    expect(evaluate(expression)).toBe(value);
  });

  it.each([
    ['1/0', /division by zero at 1/],
    ['2 +', /unexpected end/],
    ['(1+2', /expected '\)'/],
    ['1 2', /unexpected '2' at 2/],
    ['process.exit(1)', /unknown function 'process'|unexpected/],
    ['alert(1)', /unknown function 'alert' at 0/],
    ['1; 2', /unexpected ';' at 1/],
    ['10^400', /not finite/],
  ])('rejects %s', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(CalculatorError);
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('formats integers exactly and others to 12 significant digits', () => {
    expect(formatNumber(180)).toBe('180');
    expect(formatNumber(155 / 3)).toBe('51.6666666667');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
  });
});

describe('answers and rewards', () => {
  it('extracts the ### ANSWER ### part, else the whole reply', () => {
    expect(extractAnswer('Work...\n### ANSWER: 42 ###')).toBe('42');
    expect(extractAnswer('### ANSWER: 3.5')).toBe('3.5');
    expect(extractAnswer('  just 7 ')).toBe('just 7');
  });

  it('rewards equal answers, numerically within 1e-2 relative', () => {
    expect(reward('180', '180')).toBe(1);
    expect(reward('$16.00', '16')).toBe(1);
    expect(reward('1,000', '1000')).toBe(1);
    expect(reward('3/4', '0.75')).toBe(1);
    expect(reward('25.2', '25')).toBe(1);
    expect(reward('26', '25')).toBe(0);
    expect(reward('51.6666666667', '25')).toBe(0);
    expect(reward('None', '25')).toBe(0);
  });
});
