import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { LightningStoreClient } from './lightning-store-client.js';
export type { LightningStoreClientOptions } from './options.js';
export {
  ATTEMPT_ID_ATTRIBUTE,
  encodeSpansAsOtlp,
  ROLLOUT_ID_ATTRIBUTE,
  SPAN_SEQUENCE_ID_ATTRIBUTE,
} from './otlp-encoding.js';
export type {
  AttemptOutcome,
  RunnerCycleParams,
  RunnerCycleResult,
} from './runner-cycle.js';
export type { OtlpExportResult } from './span-batch-sender.js';
