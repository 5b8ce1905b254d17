import { describe, expect, it } from 'vitest';
import {
  normalizeRolloutConfig,
  parseAttempt,
  parseAttemptedRollout,
  parseEnqueueRolloutRequest,
  parsePaginatedResult,
  parseRollout,
  parseRolloutConfig,
  parseRolloutOrAttempted,
  RolloutSchema,
  ValidationError,
} from '../src/index.js';
import { ATTEMPT_JSON, ATTEMPTED_ROLLOUT_JSON, ROLLOUT_JSON, wire } from './fixtures.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('rollout models', () => {
  it('round-trips the reference Rollout, Attempt and AttemptedRollout JSON exactly', () => {
    expect(JSON.stringify(parseRollout(wire(ROLLOUT_JSON)))).toBe(JSON.stringify(ROLLOUT_JSON));
    expect(JSON.stringify(parseAttempt(wire(ATTEMPT_JSON)))).toBe(JSON.stringify(ATTEMPT_JSON));
    expect(JSON.stringify(parseAttemptedRollout(wire(ATTEMPTED_ROLLOUT_JSON)))).toBe(
      JSON.stringify(ATTEMPTED_ROLLOUT_JSON),
    );
  });

  it('fills upstream defaults for a minimal rollout', () => {
    const rollout = parseRollout({ rollout_id: 'ro-1', input: null, start_time: 5 });
    expect(rollout).toEqual({
      rollout_id: 'ro-1',
      input: null,
      start_time: 5,
      end_time: null,
      mode: null,
      resources_id: null,
      status: 'queuing',
      config: {
        timeout_seconds: null,
        unresponsive_seconds: null,
        max_attempts: 1,
        retry_condition: [],
      },
      metadata: null,
    });
    expect(Object.keys(rollout)).toEqual(Object.keys(ROLLOUT_JSON));
  });

  it('gives every parse its own default containers', () => {
    const a = parseRollout({ rollout_id: 'a', input: 1, start_time: 1 });
    const b = parseRollout({ rollout_id: 'b', input: 1, start_time: 1 });
    a.config.retry_condition.push('failed');
    expect(b.config.retry_condition).toEqual([]);
  });

  it('fills attempt defaults', () => {
    expect(
      parseAttempt({ rollout_id: 'r', attempt_id: 'a', sequence_id: 2, start_time: 1 }),
    ).toEqual({
      rollout_id: 'r',
      attempt_id: 'a',
      sequence_id: 2,
      start_time: 1,
      end_time: null,
      status: 'preparing',
      worker_id: null,
      last_heartbeat_time: null,
      metadata: null,
    });
  });

  it('drops unknown keys like Pydantic extra="ignore"', () => {
    const rollout = parseRollout({
      ...wire(ROLLOUT_JSON),
      surprise: 1,
      config: { max_attempts: 2, x: 1 },
    });
    expect(rollout).not.toHaveProperty('surprise');
    expect(rollout.config).toEqual({
      timeout_seconds: null,
      unresponsive_seconds: null,
      max_attempts: 2,
      retry_condition: [],
    });
  });

  it('requires input to be present but accepts any value for it', () => {
    expect(() => parseRollout({ rollout_id: 'r', start_time: 1 })).toThrow(
      'rollout.input: required',
    );
    expect(parseRollout({ rollout_id: 'r', start_time: 1, input: [1, 'a'] }).input).toEqual([
      1,
      'a',
    ]);
  });

  it('rejects a null config (not Optional upstream) but accepts null optional fields', () => {
    expect(() => parseRollout({ ...wire(ROLLOUT_JSON), config: null })).toThrow(
      'rollout.config: expected object, got null',
    );
    expect(parseRollout({ ...wire(ROLLOUT_JSON), mode: null }).mode).toBeNull();
  });

  it('names the offending fields in errors', () => {
    const bad = { ...wire(ROLLOUT_JSON), status: 'done', start_time: '1', metadata: [1] };
    let error: unknown;
    try {
      parseRollout(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    const message = (error as Error).message;
    expect(message).toContain('rollout.start_time: expected number, got "1"');
    expect(message).toContain(
      'rollout.status: expected one of "queuing" | "preparing" | "running" | "failed" | "succeeded" | "cancelled" | "requeuing", got "done"',
    );
    expect(message).toContain('rollout.metadata: expected object, got array');
  });

  it('uses the caller label', () => {
    expect(() => parseAttempt({}, 'body')).toThrow(/^body\.rollout_id: required/);
  });

  it('checks that an attempted rollout and its attempt agree on rollout_id', () => {
    const bad = { ...wire(ATTEMPTED_ROLLOUT_JSON), rollout_id: 'ro-other' };
    expect(() => parseAttemptedRollout(bad)).toThrow(
      'rollout.attempt.rollout_id: inconsistent rollout_id between the rollout and its attempt',
    );
  });

  it('discriminates Rollout and AttemptedRollout by the presence of "attempt"', () => {
    const attempted = parseRolloutOrAttempted(wire(ATTEMPTED_ROLLOUT_JSON));
    expect(attempted).toHaveProperty('attempt.attempt_id', 'at-9f8e7d6c');
    const plain = parseRolloutOrAttempted(wire(ROLLOUT_JSON));
    expect(plain).not.toHaveProperty('attempt');
    const nullAttempt = parseRolloutOrAttempted({ ...wire(ROLLOUT_JSON), attempt: null });
    expect(nullAttempt).not.toHaveProperty('attempt');
    expect(() =>
      parseRolloutOrAttempted({ ...wire(ROLLOUT_JSON), attempt: { attempt_id: 'x' } }),
    ).toThrow('rollout.attempt.rollout_id: required');
  });

  it('exports schemas usable directly', () => {
    expect(RolloutSchema.safeParse(wire(ROLLOUT_JSON)).success).toBe(true);
    expect(roundTrip(RolloutSchema.parse(wire(ROLLOUT_JSON)))).toEqual(ROLLOUT_JSON);
  });
});

describe('RolloutConfig', () => {
  it('enforces max_attempts >= 1 and integral', () => {
    expect(() => parseRolloutConfig({ max_attempts: 0 })).toThrow(
      'config.max_attempts: expected number >= 1, got 0',
    );
    expect(() => parseRolloutConfig({ max_attempts: 1.5 })).toThrow(
      'config.max_attempts: expected integer, got 1.5',
    );
  });

  it('restricts retry_condition to attempt statuses', () => {
    expect(parseRolloutConfig({ retry_condition: ['failed', 'timeout'] }).retry_condition).toEqual([
      'failed',
      'timeout',
    ]);
    expect(() => parseRolloutConfig({ retry_condition: ['failed', 'queuing'] })).toThrow(
      'config.retry_condition[1]: expected one of "preparing" | "running" | "failed" | "succeeded" | "unresponsive" | "timeout", got "queuing"',
    );
  });

  it('normalizeRolloutConfig fills defaults, validates and copies deeply', () => {
    expect(normalizeRolloutConfig(undefined)).toEqual({
      timeout_seconds: null,
      unresponsive_seconds: null,
      max_attempts: 1,
      retry_condition: [],
    });
    expect(normalizeRolloutConfig(null).max_attempts).toBe(1);
    const source = { max_attempts: 3, retry_condition: ['failed' as const], timeout_seconds: 2.5 };
    const config = normalizeRolloutConfig(source);
    expect(config).toEqual({ ...source, unresponsive_seconds: null });
    config.retry_condition.push('timeout');
    expect(source.retry_condition).toEqual(['failed']);
    expect(() => normalizeRolloutConfig({ unresponsive_seconds: Number.NaN })).toThrow(
      ValidationError,
    );
  });
});

describe('EnqueueRolloutRequest', () => {
  it('requires only input and fills the rest with null', () => {
    expect(parseEnqueueRolloutRequest({ input: 'task' })).toEqual({
      input: 'task',
      mode: null,
      resources_id: null,
      config: null,
      metadata: null,
    });
  });

  it('completes a partial config', () => {
    const request = parseEnqueueRolloutRequest({
      input: 1,
      mode: 'val',
      config: { max_attempts: 3 },
    });
    expect(request.config).toEqual({
      timeout_seconds: null,
      unresponsive_seconds: null,
      max_attempts: 3,
      retry_condition: [],
    });
    expect(request.mode).toBe('val');
  });

  it('rejects bad fields by name', () => {
    expect(() => parseEnqueueRolloutRequest({ mode: 'eval' })).toThrow(
      'request.input: required; request.mode: expected one of "train" | "val" | "test", got "eval"',
    );
  });
});

describe('parsePaginatedResult', () => {
  it('parses the envelope and each item, naming the failing item', () => {
    const page = parsePaginatedResult(
      { items: [wire(ROLLOUT_JSON), wire(ATTEMPTED_ROLLOUT_JSON)], limit: -1, offset: 0, total: 2 },
      parseRolloutOrAttempted,
    );
    expect(page.total).toBe(2);
    expect(page.items[1]).toHaveProperty('attempt');
    expect(() =>
      parsePaginatedResult(
        { items: [wire(ROLLOUT_JSON), { rollout_id: 1 }], limit: 1, offset: 0, total: 2 },
        parseRollout,
      ),
    ).toThrow(/^result\.items\[1\]\.rollout_id: expected string, got 1/);
    expect(() => parsePaginatedResult({ items: [], limit: 1, offset: 0 }, parseRollout)).toThrow(
      'result.total: required (expected number)',
    );
  });
});
