import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

// The write side of Arclight tracing: the tracer, the emitters and span delivery. The readers of what they write
// (rewards, messages, objects, tags, links, attribute unflattening) are @arclight/core's.
export { type FlattenOptions, flattenAttributes } from './attributes/flatten.js';
export { pythonJsonDumps } from './attributes/python-json.js';
export {
  checkAttributesSanity,
  sanitizeAttributes,
  sanitizeAttributeValue,
  sanitizeListAttribute,
} from './attributes/sanitize.js';
export { makeLinkAttributes, makeTagAttributes } from './attributes/tags-links.js';
export {
  DEFAULT_DELIVERY_QUEUE_OPTIONS,
  type DeliveryQueueOptions,
  type DeliveryStats,
} from './delivery/delivery-queue.js';
export type { DeliveryItem, DeliveryOutcome, SpanDestination } from './delivery/destination.js';
export {
  DEFAULT_MEMORY_DESTINATION_MAX_SPANS,
  InMemorySpanDestination,
  type InMemorySpanDestinationOptions,
} from './delivery/memory-destination.js';
export {
  encodeOtlpRequest,
  type OtlpDestinationOptions,
  OtlpSpanDestination,
  otlpTracesUrl,
} from './delivery/otlp-destination.js';
export { isRetryableStoreError, StoreSpanDestination } from './delivery/store-destination.js';
export type { TracerLogger } from './delivery/warnings.js';
export { emitAnnotation } from './emitters/annotation.js';
export type { EmitOptions } from './emitters/emit-span.js';
export { emitException } from './emitters/exception.js';
export { emitMessage } from './emitters/message.js';
export { emitObject, encodeObject } from './emitters/object.js';
export {
  type OperationFunction,
  type OperationHandle,
  type OperationOptions,
  operation,
} from './emitters/operation.js';
export { type EmitRewardOptions, emitReward, rewardDimensions } from './emitters/reward.js';
export type {
  InstrumentationScopeLike,
  ReadableSpanLike,
  SpanProcessorLike,
} from './otel-types.js';
export {
  type CreateSpanOptions,
  clearActiveTracer,
  type EmitterTracer,
  getActiveTracer,
  setActiveTracer,
  type TraceContextIds,
  traceContext,
} from './tracer/active-tracer.js';
export { ensureContextManager } from './tracer/context-manager.js';
export { EMITTER_SCOPE, LightningTracer } from './tracer/lightning-tracer.js';
export {
  isOtlpCapableStore,
  type LightningTracerOptions,
  type OtlpCapableStore,
} from './tracer/options.js';
export type { TracerProviderLike } from './tracer/provider-join.js';
export { LightningSpanProcessor } from './tracer/span-processor.js';
export type { SpanRecording } from './tracer/span-recording.js';
export {
  currentScope as currentTraceScope,
  type RolloutAttribution,
} from './tracer/trace-scope.js';
