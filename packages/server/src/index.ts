import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { type StaticSiteOptions, serveStaticSite } from './http/static-site.js';
export {
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  type LightningStoreServerOptions,
} from './options.js';
export {
  ATTEMPT_ID_ATTRIBUTE,
  type ConvertedOtlpSpans,
  otlpToSpans,
  ROLLOUT_ID_ATTRIBUTE,
  SPAN_SEQUENCE_ID_ATTRIBUTE,
} from './otlp/convert.js';
export { decodeJsonTraces } from './otlp/decode-json.js';
export { decodeProtobufTraces } from './otlp/decode-protobuf.js';
export { ingestOtlpSpans, type OtlpIngestResult } from './otlp/ingest.js';
export type { OtlpResourceSpans, OtlpSpan } from './otlp/model.js';
export {
  createLightningStoreServer,
  type LightningStoreServer,
} from './server.js';
