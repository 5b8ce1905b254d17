import { describe, expect, it } from 'vitest';
import { majorVersion, resolvedPackageVersion } from '../src/index.js';

describe('resolvedPackageVersion / majorVersion', () => {
  it('reads the version of a package as a module resolves it', () => {
    const version = resolvedPackageVersion(import.meta.url, 'vitest');
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(majorVersion(version)).toBeGreaterThanOrEqual(1);
  });

  it('is undefined for a package that does not resolve, or hides its package.json', () => {
    expect(resolvedPackageVersion(import.meta.url, 'arclight-no-such-package')).toBeUndefined();
    // `@opentelemetry/api`'s `exports` do not list `./package.json`.
    expect(resolvedPackageVersion(import.meta.url, '@opentelemetry/api')).toBeUndefined();
  });

  it.each([
    ['6.0.333', 6],
    ['0.3.72', 0],
    ['10.1.0-beta.2', 10],
    ['latest', undefined],
    [undefined, undefined],
  ])('majorVersion(%s) = %s', (version, major) => {
    expect(majorVersion(version)).toBe(major);
  });
});
