// The reward readers live in @arclight/core (the adapter uses them too); re-exported here beside the emitters.
export {
  findFinalReward,
  findRewardSpans,
  getRewardsFromSpan,
  getRewardValue,
  isRewardSpan,
} from '@arclight/core';
export {
  type FlattenOptions,
  filterAndUnflattenAttributes,
  filterAttributes,
  flattenAttributes,
  unflattenAttributes,
} from './attributes/flatten.js';
export { pythonJsonDumps } from './attributes/python-json.js';
export {
  checkAttributesSanity,
  sanitizeAttributes,
  sanitizeAttributeValue,
  sanitizeListAttribute,
} from './attributes/sanitize.js';
export {
  extractLinksFromAttributes,
  extractTagsFromAttributes,
  type LinkableSpan,
  makeLinkAttributes,
  makeTagAttributes,
  queryLinkedSpans,
} from './attributes/tags-links.js';
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
export {
  DEFAULT_EXPORT_QUEUE_OPTIONS,
  type ExportQueueOptions,
  type ExportStats,
} from './export/export-queue.js';
export { InMemorySpanSink } from './export/memory-sink.js';
export {
  encodeOtlpRequest,
  type OtlpSinkOptions,
  OtlpSpanSink,
  otlpTracesUrl,
} from './export/otlp-sink.js';
export type { SinkItem, SinkOutcome, SpanSink } from './export/span-sink.js';
export { isRetryableStoreError, StoreSpanSink } from './export/store-sink.js';
export type { TracerLogger } from './export/warnings.js';
export type {
  InstrumentationScopeLike,
  ReadableSpanLike,
  SpanProcessorLike,
} from './otel-types.js';
export { getMessageValue } from './readers/message.js';
export { getObjectValue } from './readers/object.js';
export type { SpanLike } from './readers/span-like.js';
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
