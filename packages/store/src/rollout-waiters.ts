interface Waiter {
  ids: ReadonlySet<string>;
  wake: () => void;
}

/**
 * Wake-ups for `waitForRollouts`: a waiter sleeps until one of its rollouts finishes in this process, or for
 * at most one poll interval (writers in other processes cannot notify it), whichever comes first.
 */
export class RolloutWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly pollMs: number) {}

  wait(rolloutIds: readonly string[], maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        ids: new Set(rolloutIds),
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, Math.max(0, Math.min(this.pollMs, maxMs)));
      this.waiters.add(waiter);
    });
  }

  notify(finishedIds: readonly string[]): void {
    for (const waiter of [...this.waiters]) {
      if (finishedIds.some((id) => waiter.ids.has(id))) waiter.wake();
    }
  }

  wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
  }
}
