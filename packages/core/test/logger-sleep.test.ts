import { describe, expect, it, vi } from 'vitest';
import {
  consoleLogger,
  interruptibleSleep,
  type Logger,
  resolveLogger,
  silentLogger,
  verboseConsoleLogger,
} from '../src/index.js';

describe('resolveLogger', () => {
  it('undefined → the fallback (console by default), null → silence, a logger → itself', () => {
    const mine: Logger = { warn: () => {}, error: () => {} };
    expect(resolveLogger(undefined)).toBe(consoleLogger);
    expect(resolveLogger(undefined, verboseConsoleLogger)).toBe(verboseConsoleLogger);
    expect(resolveLogger(null, verboseConsoleLogger)).toBe(silentLogger);
    expect(resolveLogger(mine)).toBe(mine);
  });

  it('the console logger drops info; the verbose one prints it', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(consoleLogger.info).toBeUndefined();
      verboseConsoleLogger.info?.('progress');
      expect(log).toHaveBeenCalledWith('progress');
    } finally {
      log.mockRestore();
    }
  });
});

describe('interruptibleSleep', () => {
  it('returns at once for an aborted signal and early when the signal aborts', async () => {
    const aborted = AbortSignal.abort();
    await interruptibleSleep(3600, aborted);
    const controller = new AbortController();
    const sleeping = interruptibleSleep(3600, controller.signal);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
  });
});
