import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { claimLlmCall, expectLlmCall } from '../src/index.js';

function contextOf(spanId: string) {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId,
    traceFlags: 1,
  });
}

describe('LLM-call claims', () => {
  it('a client call in the same context takes the claim; the framework span then is no LLM call', () => {
    const ctx = contextOf('b7ad6b7169203331');
    const claim = expectLlmCall(ctx, 'm');
    expect(claimLlmCall(ctx, 'openai', 'm')).toBe(true);
    expect(claim.claimedBy).toBe('openai');
    expect(claim.close()).toBe(true);
  });

  it('an untaken claim stays open until closed, and a claim serves one call only', () => {
    const ctx = contextOf('b7ad6b7169203332');
    const claim = expectLlmCall(ctx);
    expect(claim.claimed).toBe(false);
    expect(claimLlmCall(ctx, 'openai')).toBe(true);
    // A second client call (a retry) finds no open claim: it counts on its own.
    expect(claimLlmCall(ctx, 'openai')).toBe(false);
    expect(claim.close()).toBe(true);
    expect(claimLlmCall(ctx, 'openai')).toBe(false);
  });

  it('a call in another context does not take the claim (that framework copy is not instrumented)', () => {
    const claim = expectLlmCall(contextOf('b7ad6b7169203333'));
    expect(claimLlmCall(contextOf('b7ad6b7169203334'), 'openai')).toBe(false);
    expect(claimLlmCall(ROOT_CONTEXT, 'openai')).toBe(false);
    expect(claim.close()).toBe(false);
  });

  it('concurrent calls in one context are matched by model, else oldest first', () => {
    const ctx = contextOf('b7ad6b7169203335');
    const a = expectLlmCall(ctx, 'a');
    const b = expectLlmCall(ctx, 'b');
    const c = expectLlmCall(ctx, 'c');
    expect(claimLlmCall(ctx, 'openai', 'b')).toBe(true);
    expect(claimLlmCall(ctx, 'openai', 'unknown')).toBe(true);
    expect([a.close(), b.close(), c.close()]).toEqual([true, true, false]);
  });

  it('is shared by copies of the package (kept on globalThis): the built copy sees this one', async () => {
    // dist/ (built before tests) is a second module instance next to the src/ one vitest runs.
    const copy = await import(
      /* @vite-ignore */ new URL('../dist/claims.js', import.meta.url).href
    );
    const ctx = contextOf('b7ad6b7169203336');
    const claim = expectLlmCall(ctx);
    expect(copy.claimLlmCall(ctx, 'openai')).toBe(true);
    expect(claim.close()).toBe(true);
  });
});
