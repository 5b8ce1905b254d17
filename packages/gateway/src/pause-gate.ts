/** What a paused gateway does with new calls. */
export type PauseMode = 'wait' | 'reject';

/** `state()` of a gateway. */
export interface GatewayState {
  paused: boolean;
  mode: PauseMode;
  /** Calls being served (forwarded to a backend, or streaming back). */
  in_flight: number;
  /** Calls waiting for `resume()`. */
  queued: number;
}

/**
 * Admission of calls around a weight update: while paused, new calls wait for `resume()` (or are rejected);
 * calls already admitted run to completion and `drained()` resolves once none is left.
 */
export class PauseGate {
  private paused = false;
  private mode: PauseMode = 'wait';
  private inFlight = 0;
  private waiting: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];

  /** Admits a call: `true` once it may run, `false` when it must be rejected (paused with mode `reject`). */
  async enter(): Promise<boolean> {
    if (this.paused) {
      if (this.mode === 'reject') return false;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight++;
    return true;
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  pause(mode: PauseMode): void {
    this.paused = true;
    this.mode = mode;
  }

  resume(): void {
    this.paused = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Resolves once no admitted call is left (immediately when none is). */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  state(): GatewayState {
    return {
      paused: this.paused,
      mode: this.mode,
      in_flight: this.inFlight,
      queued: this.waiting.length,
    };
  }
}
