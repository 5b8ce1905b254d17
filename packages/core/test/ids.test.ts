import { describe, expect, it } from 'vitest';
import {
  generateAttemptId,
  generateId,
  generateResourcesId,
  generateRolloutId,
  generateSpanId,
  generateTraceId,
  isAttemptId,
  isResourcesId,
  isRolloutId,
  isSpanId,
  isTraceId,
} from '../src/index.js';

const many = (fn: () => string, n = 5000): string[] => Array.from({ length: n }, fn);

describe('ids', () => {
  it.each([
    ['rollout', generateRolloutId, /^ro-[0-9a-f]{12}$/, isRolloutId],
    ['attempt', generateAttemptId, /^at-[0-9a-f]{8}$/, isAttemptId],
    ['resources', generateResourcesId, /^rs-[0-9a-f]{12}$/, isResourcesId],
    ['trace', generateTraceId, /^[0-9a-f]{32}$/, isTraceId],
    ['span', generateSpanId, /^[0-9a-f]{16}$/, isSpanId],
  ] as const)(
    '%s ids have the upstream format, are unique, and pass their check',
    (_, generate, pattern, check) => {
      const ids = many(generate);
      for (const id of ids) {
        expect(id).toMatch(pattern);
        expect(check(id)).toBe(true);
      }
      expect(new Set(ids).size).toBe(ids.length);
    },
  );

  it('uses every hex digit in every random position over many draws', () => {
    const resources = many(generateResourcesId, 2000);
    const rollouts = many(generateRolloutId, 2000);
    for (let position = 3; position < 15; position++) {
      expect(new Set(resources.map((id) => id[position])).size).toBe(16);
      if (position >= 9) expect(new Set(rollouts.map((id) => id[position])).size).toBe(16);
    }
  });

  it('gives the rollouts of one process neighbouring ids: a counter, then 6 random hex digits', () => {
    const counters = many(generateRolloutId, 1000).map((id) => Number.parseInt(id.slice(3, 9), 16));
    for (let i = 1; i < counters.length; i++) {
      expect(counters[i]).toBe(((counters[i - 1] as number) + 1) % 0x1000000);
    }
  });

  it('rejects malformed ids', () => {
    expect(isRolloutId('ro-ABCDEF012345')).toBe(false);
    expect(isRolloutId('ro-0123456789a')).toBe(false);
    expect(isRolloutId('at-0123456789ab')).toBe(false);
    expect(isAttemptId('at-0123456789')).toBe(false);
    expect(isResourcesId(42)).toBe(false);
    expect(isTraceId('0'.repeat(32))).toBe(false);
    expect(isSpanId('0'.repeat(16))).toBe(false);
    expect(isSpanId('0af7651916cd43dd')).toBe(true);
  });

  it('generateId gives the requested number of hex characters', () => {
    expect(generateId(0)).toBe('');
    expect(generateId(7)).toMatch(/^[0-9a-f]{7}$/);
    expect(generateId(40)).toMatch(/^[0-9a-f]{40}$/);
    expect(() => generateId(-1)).toThrow(RangeError);
  });
});
