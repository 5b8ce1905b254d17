import { LightningTracer } from '@arclight/otel';
import type { RunnerTracer } from '@arclight/runner';
import type { LightningStore } from '@arclight/store';

interface Entry {
  tracer: RunnerTracer;
  owned: boolean;
  users: number;
}

/**
 * One tracer per store for the runners of this process, shared while they run: created from the trainer's
 * `tracer` option (instance or factory) or as a `LightningTracer`. Tracers the pool created are shut down
 * (flushed) when their last runner releases them; a tracer instance given by the user is only flushed.
 */
export class TracerPool {
  private readonly entries = new Map<LightningStore, Entry>();

  constructor(
    private readonly spec: RunnerTracer | ((store: LightningStore) => RunnerTracer) | undefined,
  ) {}

  acquire(store: LightningStore): RunnerTracer {
    let entry = this.entries.get(store);
    if (!entry) {
      const spec = this.spec;
      entry =
        typeof spec === 'function'
          ? { tracer: spec(store), owned: true, users: 0 }
          : spec
            ? { tracer: spec, owned: false, users: 0 }
            : { tracer: new LightningTracer({ store }), owned: true, users: 0 };
      this.entries.set(store, entry);
    }
    entry.users += 1;
    return entry.tracer;
  }

  async release(store: LightningStore): Promise<void> {
    const entry = this.entries.get(store);
    if (!entry) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    this.entries.delete(store);
    if (entry.owned) await entry.tracer.shutdown?.();
    else await entry.tracer.flush?.();
  }
}
