/** A hand-driven clock in epoch seconds, for stores created with an injected `clock`. */
export class FakeClock {
  private current: number;

  constructor(start = 1_700_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(seconds: number): void {
    if (!(seconds >= 0))
      throw new RangeError(`FakeClock.advance: seconds must be >= 0, got ${seconds}`);
    this.current += seconds;
  }

  set(t: number): void {
    this.current = t;
  }
}
