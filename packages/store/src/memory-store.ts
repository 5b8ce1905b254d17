import { BackendLightningStore, type BaseStoreOptions } from './backend-store.js';
import type { LightningStoreCapabilities } from './lightning-store.js';
import { MemoryBackend } from './memory/index.js';
import type { SpanCapOptions } from './memory/span-cap.js';

export interface InMemoryStoreOptions extends BaseStoreOptions, SpanCapOptions {}

/** A LightningStore held in this process's memory. Fast, and gone when the process exits. */
export class InMemoryLightningStore extends BackendLightningStore {
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: false,
    otlp_traces: false,
  };

  /** With `maxSpanBytes`/`maxSpans`, spans of finished rollouts are evicted to stay under the cap (see SpanCapOptions). */
  constructor(options: InMemoryStoreOptions = {}) {
    super(
      new MemoryBackend({
        maxSpanBytes: options.maxSpanBytes,
        maxSpans: options.maxSpans,
        safeFraction: options.safeFraction,
      }),
      options,
    );
  }
}
