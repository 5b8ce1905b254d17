import { describe, expect, it } from 'vitest';
import { runCliToEnd } from './cli.js';

describe('arclight store: postgres and --workers flags that cannot work exit non-zero with a one-line reason', () => {
  const cases: Array<[string[], RegExp]> = [
    [['store', '--workers', '0'], /--workers.*'0' is invalid.*from 1 to 256/],
    [['store', '--workers', '2', '--backend', 'sqlite'], /--workers 2 needs --backend postgres/],
    [['store', '--backend', 'postgres'], /postgres backend needs --database-url/],
    [
      ['store', '--backend', 'postgres', '--database-url', 'postgres://u:secret@127.0.0.1:1/db'],
      /cannot open the postgres store: .*postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db/,
    ],
  ];
  it.each(cases)('%j', { timeout: 60_000 }, async (args, message) => {
    const result = await runCliToEnd(args, { ARCLIGHT_DATABASE_URL: '' });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('secret');
    expect(result.stdout).toBe('');
  });
});
