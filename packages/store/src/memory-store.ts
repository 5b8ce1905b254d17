import { BaseLightningStore, type BaseStoreOptions } from './base-store.js';
import type { LightningStoreCapabilities } from './lightning-store.js';
import { MemoryBackend } from './memory/index.js';

/** A LightningStore held in this process's memory. Fast, and gone when the process exits. */
export class InMemoryLightningStore extends BaseLightningStore {
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: false,
    otlp_traces: false,
  };

  constructor(options: BaseStoreOptions = {}) {
    super(new MemoryBackend(), options);
  }
}
