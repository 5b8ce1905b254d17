import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rollout, Triplet } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import {
  type ExportRecord,
  FORMATS,
  JsonLine,
  type LineBuffer,
  prepareRollout,
  writeExport,
} from '../src/index.js';
import { recordOf, rolloutOf } from './support/fixtures.js';
import { tempDir } from './support/run.js';
import { SCENARIO } from './support/scenario.js';
import { TRICKY_STRINGS } from './support/strings.js';

/** A growing buffer that starts tiny, so every list also goes through `reserve` moving the open line. */
class Lines implements LineBuffer {
  bytes = Buffer.alloc(4);
  used = 0;
  reserve(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    const next = Buffer.alloc(this.used + n + 3);
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }
  take(): string {
    const text = this.bytes.toString('utf8', 0, this.used);
    this.used = 0;
    return text;
  }
}

/** Deterministic PRNG (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIAL: unknown[] = [
  0,
  -0,
  1,
  -1,
  9,
  10,
  -10,
  99,
  100,
  2147483647,
  -2147483647,
  -2147483648,
  2147483648,
  -2147483649,
  2 ** 53,
  -(2 ** 53) - 2,
  1e21,
  -1e21,
  1e-6,
  -1e-6,
  1e-7,
  5e-324,
  1.7976931348623157e308,
  0.1,
  0.5,
  -0.25,
  0.125,
  1 / 3,
  -2 / 3,
  123456.789,
  2 ** 31 - 0.5,
  999999999.5,
  0.30000000000000004,
  Math.fround(-0.1234),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

function element(next: () => number, kinds: 'ints' | 'numbers' | 'any'): unknown {
  const r = next();
  if (kinds === 'ints' || r < 0.4) {
    const digits = Math.floor(next() * 11);
    const v = Math.floor(next() * 10 ** digits) * (next() < 0.2 ? -1 : 1);
    return next() < 0.02 ? SPECIAL[Math.floor(next() * SPECIAL.length)] : v;
  }
  if (kinds === 'numbers' || r < 0.95) {
    const s = next();
    if (s < 0.3)
      return (
        Math.round((next() - 0.5) * 10 ** Math.floor(next() * 9)) /
        10 ** (1 + Math.floor(next() * 8))
      );
    if (s < 0.6) return -next() * 20;
    if (s < 0.8) return Math.fround(-next() * 5);
    return SPECIAL[Math.floor(next() * SPECIAL.length)];
  }
  return [null, undefined, '7', true, {}, [1], new Number(3)][Math.floor(next() * 7)];
}

describe('JsonLine (number lists, byte-identical to JSON.stringify)', () => {
  it('writes the special values as JSON.stringify does, one at a time and all together', () => {
    const out = new Lines();
    const line = new JsonLine(out);
    for (const value of [...SPECIAL, undefined, null, '1', true]) {
      for (const write of ['ints', 'numbers'] as const) {
        for (const list of [[value], [1, value], [value, 2, value], [0.5, value]]) {
          line[write](list as number[]);
          expect(out.take()).toBe(JSON.stringify(list));
        }
      }
    }
    for (const write of ['ints', 'numbers'] as const) {
      line[write](SPECIAL as number[]);
      expect(out.take()).toBe(JSON.stringify(SPECIAL));
      line[write]([]);
      expect(out.take()).toBe('[]');
      // biome-ignore lint/suspicious/noSparseArray: holes are written as null by JSON.stringify
      const holes = [1, , 3];
      line[write](holes as number[]);
      expect(out.take()).toBe(JSON.stringify(holes));
      line[write](null as unknown as number[]);
      expect(out.take()).toBe('null');
    }
  });

  it('random lists of ints, decimals, doubles and non-numbers', () => {
    const next = random(14);
    const out = new Lines();
    const line = new JsonLine(out);
    for (let i = 0; i < 3000; i++) {
      const kinds = (['ints', 'numbers', 'any'] as const)[i % 3]!;
      const list = Array.from({ length: Math.floor(next() * 40) }, () => element(next, kinds));
      line.ints(list as number[]);
      expect(out.take(), JSON.stringify(list)).toBe(JSON.stringify(list));
      line.numbers(list as number[]);
      expect(out.take(), JSON.stringify(list)).toBe(JSON.stringify(list));
    }
  });

  it('remembered prefixes: growing, equal, shorter, diverging and non-int32 lists', () => {
    const next = random(7);
    const out = new Lines();
    const line = new JsonLine(out);
    let list: unknown[] = Array.from({ length: 20 }, () => element(next, 'ints'));
    for (let i = 0; i < 2000; i++) {
      const r = next();
      if (r < 0.5)
        list = [
          ...list,
          ...Array.from({ length: Math.floor(next() * 30) }, () => element(next, 'ints')),
        ];
      else if (r < 0.6) list = list.slice(0, Math.floor(next() * list.length));
      else if (r < 0.75 && list.length > 0) {
        list = [...list];
        list[Math.floor(next() * list.length)] = element(next, next() < 0.5 ? 'ints' : 'any');
      } else if (r < 0.8)
        list = Array.from({ length: Math.floor(next() * 60) }, () => element(next, 'ints'));
      if (list.length > 400) list = list.slice(0, 20);
      line.ints(list as number[], true);
      expect(out.take(), JSON.stringify(list)).toBe(JSON.stringify(list));
      // A list mutated after it was remembered is compared, not trusted.
      if (next() < 0.1 && list.length > 0) (list as number[])[0] = (list[0] as number) + 1;
    }
  });

  it('marks members JSON.stringify would leave out or convert (undefined, functions, toJSON)', () => {
    const line = new JsonLine(new Lines());
    expect(line.value('a"b')).toBe('"a\\"b"');
    expect(line.unsafe).toBe(false);
    expect(line.value({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(line.unsafe).toBe(false);
    for (const special of [undefined, () => 1, Symbol('s'), new Date(0), { toJSON: () => 1 }]) {
      const fresh = new JsonLine(new Lines());
      fresh.value(special);
      expect(fresh.unsafe).toBe(true);
    }
  });
});

describe('JsonLine pieces (byte-identical to JSON.stringify)', () => {
  it('ints: negative numbers, empty lists, large ids', () => {
    const out = new Lines();
    const line = new JsonLine(out);
    for (const list of [
      [],
      [-1, -9, -10, -99, -100, -999, -1000, -65535, -2147483648],
      [0, 151643, 999999, 1000000, 99999999, 1000000000, 2147483647],
      [2147483648, 2 ** 53, 1e21, -(2 ** 40)],
      [-0, 0, 7],
    ]) {
      line.ints(list);
      expect(out.take()).toBe(JSON.stringify(list));
    }
  });

  it('mask: runs of 0/1 of any length, and anything else as ints writes it', () => {
    const out = new Lines();
    const line = new JsonLine(out);
    const runs = (...lengths: number[]): number[] =>
      lengths.flatMap((n, i) => Array.from({ length: n }, () => i % 2));
    // biome-ignore lint/suspicious/noSparseArray: holes are written as null by JSON.stringify
    const holes = [1, , 0];
    for (const list of [
      [],
      [0],
      [1],
      [0, 1, 0, 1, 1],
      runs(165, 49, 16, 49, 16, 49),
      runs(0, 5000, 3, 4000),
      [-0, 1],
      [0, 1, 2],
      [1, -1],
      [0, 0.5],
      [1, null],
      holes,
      [...runs(20, 20), 7],
    ]) {
      line.mask(list as number[]);
      expect(out.take(), JSON.stringify(list)).toBe(JSON.stringify(list));
    }
    line.mask(null as unknown as number[]);
    expect(out.take()).toBe('null');
  });

  it('number, string, raw and text', () => {
    const out = new Lines();
    const line = new JsonLine(out);
    for (const value of SPECIAL) {
      line.number(value as number);
      expect(out.take(), String(value)).toBe(JSON.stringify(value));
    }
    for (const value of TRICKY_STRINGS) {
      line.string(value);
      expect(out.take(), value).toBe(JSON.stringify(value));
      // `text` takes JSON text (lone surrogates already escaped); raw ones become U+FFFD, as in Buffer.write.
      line.text(value);
      expect(out.take(), value).toBe(Buffer.from(value).toString());
      line.text(value.repeat(20));
      expect(out.take(), value).toBe(Buffer.from(value.repeat(20)).toString());
    }
    line.raw(Buffer.from('{"a":'));
    line.raw(new Uint8Array(0));
    line.number(-0.25);
    line.text('}');
    expect(out.take()).toBe('{"a":-0.25}');
  });
});

const rolloutFor = (id: string, task: string): Rollout =>
  rolloutOf({ rollout_id: id, input: { task }, metadata: { task_id: task } });

/** Calls whose prompts extend each other, with ids and logprobs of every kind the writers may meet. */
function edgeRecords(): ExportRecord[] {
  const next = random(3);
  const records: ExportRecord[] = [];
  for (let r = 0; r < 6; r++) {
    const triplets: Triplet[] = [];
    let prompt: unknown[] = Array.from({ length: 30 }, () => element(next, 'ints'));
    for (let c = 0; c < 4; c++) {
      const reply = Array.from({ length: 8 }, () => element(next, 'ints'));
      const logprobs = reply.map(() => (r % 2 === 0 ? element(next, 'numbers') : -0.5));
      triplets.push({
        prompt: {
          token_ids: prompt,
          raw_content: [{ role: 'user', content: `q${r} "é\u2028\ud800` }],
        },
        response: {
          token_ids: reply,
          raw_content: [{ role: 'assistant', content: `a${c}` }],
          logprobs: logprobs.map((logprob) => ({
            token: 't',
            logprob,
            bytes: null,
            top_logprobs: [],
          })),
        },
        reward: c === 3 ? r / 4 : null,
        metadata:
          r === 5 && c === 1
            ? { agent_name: 'solver', when: new Date(0) }
            : { agent_name: 'solver', response_id: `id-${r}-${c}` },
      });
      prompt = [...prompt, ...reply, ...Array.from({ length: 3 }, () => element(next, 'ints'))];
    }
    records.push({
      rollout: rolloutFor(`ro-${r}`, `task-${r >> 1}`),
      attempt_id: r === 4 ? (undefined as unknown as null) : `at-${r}`,
      triplets,
    });
  }
  return records;
}

describe('JSONL formats with a fast line writer', () => {
  const fast = FORMATS.filter((f) => f.output.kind === 'jsonl' && f.output.line);

  it('covers the per-call and trajectory token formats', () => {
    expect(fast.map((f) => f.name)).toEqual(
      expect.arrayContaining(['triplets', 'verl-jsonl', 'verl-trajectory-jsonl', 'trl-sft-tokens']),
    );
  });

  for (const [name, records] of [
    ['the shared scenario', () => SCENARIO.map(recordOf)],
    ['edge-case ids, logprobs, strings and members', edgeRecords],
  ] as const) {
    it(`writes exactly JSON.stringify(row) for every row: ${name}`, async () => {
      for (const format of fast) {
        const input = records();
        const out = join(tempDir(), `${format.name}.jsonl`);
        await writeExport(input, { format: format.name, out, maxOpenGroups: 1 });
        const expected: string[] = [];
        const skip = { rollout: () => {}, triplet: () => {} };
        const options = { minReward: null, rewardThreshold: 0.5, minRewardGap: 0 };
        const prepared = input.filter((r) => r.triplets.length > 0).map((r) => prepareRollout(r));
        if (format.grouping === 'rollout') {
          for (const rollout of prepared) {
            for (const row of format.rows(rollout, options, skip))
              expected.push(JSON.stringify(row));
          }
        } else {
          const tasks = [...new Set(prepared.map((r) => r.task_id))];
          for (const task of tasks) {
            const group = prepared.filter((r) => r.task_id === task);
            for (const row of format.rows(group, options, skip)) expected.push(JSON.stringify(row));
          }
        }
        expect(expected.length, format.name).toBeGreaterThan(0);
        expect(readFileSync(out, 'utf8'), format.name).toBe(expected.map((l) => `${l}\n`).join(''));
      }
    });
  }
});
