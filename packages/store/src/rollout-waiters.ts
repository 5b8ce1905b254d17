interface Waiter {
  ids: ReadonlySet<string>;
  wake: () => void;
}

export interface ArmedWait {
  /** Sleeps until a wake-up, `maxMs`, or the poll interval, whichever comes first. */
  sleep(maxMs: number): Promise<void>;
  cancel(): void;
}

/**
 * Wake-ups for `waitForRollouts`: a waiter sleeps until one of its rollouts is announced finished (`notify`:
 * by a commit in this process, or by whatever else a store listens to), or for at most one poll interval
 * (writers the store cannot hear from must still be seen), whichever comes first.
 */
export class RolloutWaiters {
  private readonly waiters = new Set<Waiter>();
  private closed = false;

  constructor(private readonly pollMs: number) {}

  /**
   * Registers interest in `rolloutIds` now (so that a finish announced before `sleep` is not missed) and
   * returns the handle to sleep on; `sleep` returns at once if a wake-up already arrived.
   */
  arm(rolloutIds: readonly string[]): ArmedWait {
    let woken = false;
    let resolveSleep: (() => void) | null = null;
    let timer: NodeJS.Timeout | undefined;
    const waiter: Waiter = {
      ids: new Set(rolloutIds),
      wake: () => {
        woken = true;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolveSleep?.();
      },
    };
    this.waiters.add(waiter);
    return {
      sleep: (maxMs) =>
        new Promise<void>((resolve) => {
          if (woken || this.closed) {
            waiter.wake();
            resolve();
            return;
          }
          resolveSleep = resolve;
          timer = setTimeout(waiter.wake, Math.max(0, Math.min(this.pollMs, maxMs)));
        }),
      cancel: () => waiter.wake(),
    };
  }

  notify(finishedIds: readonly string[]): void {
    for (const waiter of [...this.waiters]) {
      if (finishedIds.some((id) => waiter.ids.has(id))) waiter.wake();
    }
  }

  /** Wakes every waiter; later sleeps return at once. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.wake();
  }
}
