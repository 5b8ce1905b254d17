import { resetWarnings, WarningCodes } from '@arclight/core';
import { InMemorySpanDestination, LightningTracer } from '@arclight/otel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSafely,
  errorType,
  hasTokenIds,
  isThenable,
  packageIdentity,
  recordError,
  safeJson,
  warnNoTokenIds,
  warnUninstrumentedClient,
} from '../src/index.js';

function collectWarnings(): { warnings: Error[]; stop(): void } {
  const warnings: Error[] = [];
  const listener = (warning: Error) => warnings.push(warning);
  process.on('warning', listener);
  return { warnings, stop: () => process.off('warning', listener) };
}

/** `process.emitWarning` delivers on the next tick. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('toolkit', () => {
  afterEach(() => resetWarnings());

  it('safely returns the fallback when the guarded code throws', () => {
    const safely = createSafely('test');
    expect(
      safely(
        'x',
        () => {
          throw new Error('boom');
        },
        7,
      ),
    ).toBe(7);
    expect(safely('x', () => 1, 7)).toBe(1);
  });

  it('one error.type rule: specific name, else class name, else Error', () => {
    class CustomFailure extends Error {}
    const named = new Error('x');
    named.name = 'AbortError';
    expect(errorType(named)).toBe('AbortError');
    expect(errorType(new CustomFailure('x'))).toBe('CustomFailure');
    expect(errorType(new TypeError('x'))).toBe('TypeError');
    expect(errorType(new Error('x'))).toBe('Error');
    expect(errorType('text')).toBe('Error');
    expect(errorType({ code: 1 })).toBe('Error');
  });

  it('recordError writes exception, error.type and status ERROR', async () => {
    const tracer = new LightningTracer({
      destination: new InMemorySpanDestination(),
      logger: null,
    });
    await tracer.traceContext({}, async () => {
      const span = tracer.getTracer('t').startSpan('s');
      recordError(span, 'first line\nsecond');
      span.end();
    });
    const [span] = tracer.getLastTrace();
    expect(span?.attributes['error.type']).toBe('Error');
    expect(span?.status).toMatchObject({ status_code: 'ERROR', description: 'first line' });
    await tracer.shutdown();
  });

  it('safeJson never throws; isThenable spots promises', () => {
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    expect(safeJson(cyclic)).toBe('{"n":"1","self":"[Circular]"}');
    const hostile = {
      get boom() {
        throw new Error('no');
      },
    };
    expect(() => safeJson(hostile)).not.toThrow();
    expect(isThenable(Promise.resolve())).toBe(true);
    expect(isThenable({ ['then' as string]: 1 })).toBe(false);
  });

  it('reads the package identity from package.json', () => {
    expect(packageIdentity(new URL('../src/index.ts', import.meta.url).href)).toEqual({
      name: '@arclight/instrumentation',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it('hasTokenIds wants both lists non-empty', () => {
    expect(hasTokenIds({ prompt_token_ids: [1], response_token_ids: [2] })).toBe(true);
    expect(hasTokenIds({ prompt_token_ids: [1], response_token_ids: [] })).toBe(false);
    expect(hasTokenIds({})).toBe(false);
  });

  it('warns once per process and source, with the code and the fix', async () => {
    const seen = collectWarnings();
    try {
      warnNoTokenIds('@arclight/instrumentation-x', 'pass `requestTokenIds: true`');
      warnNoTokenIds('@arclight/instrumentation-x', 'pass `requestTokenIds: true`');
      warnNoTokenIds('@arclight/instrumentation-y', 'set `y`');
      warnUninstrumentedClient('LangChain', 'openai');
      warnUninstrumentedClient('LangChain', 'openai');
      await tick();
    } finally {
      seen.stop();
    }
    const codes = seen.warnings.map((w) => (w as Error & { code?: string }).code);
    expect(codes).toEqual([
      WarningCodes.NO_TOKEN_IDS,
      WarningCodes.NO_TOKEN_IDS,
      WarningCodes.UNINSTRUMENTED_CLIENT,
    ]);
    expect(seen.warnings[0]?.message).toContain('requestTokenIds: true');
    expect(seen.warnings[0]?.name).toBe('ArclightWarning');
    expect(seen.warnings[2]?.message).toContain('instrumentOpenAI');
  });
});
