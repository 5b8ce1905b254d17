import { describe, expect, it, vi } from 'vitest';
import { isInstrumented, markInstrumented } from '../src/index.js';

describe('instrumentation registry', () => {
  it('counts nested activations and survives a second copy of the module', async () => {
    expect(isInstrumented('example')).toBe(false);
    markInstrumented('example', true);
    markInstrumented('example', true);
    markInstrumented('example', false);
    expect(isInstrumented('example')).toBe(true);
    // A second copy of the module (fresh import) sees the same registry through globalThis.
    vi.resetModules();
    const copy = await import('../src/instrumentation-registry.js');
    expect(copy.isInstrumented('example')).toBe(true);
    markInstrumented('example', false);
    expect(copy.isInstrumented('example')).toBe(false);
    markInstrumented('example', false);
    expect(isInstrumented('example')).toBe(false);
  });
});
