/**
 * Semantic conventions for Agent Lightning spans (upstream `agentlightning/semconv.py`, v0.3.0), plus the
 * deprecated `SpanNames` / `SpanAttributeNames` enums of `types/tracer.py`. Python `Enum`s become frozen
 * `as const` objects with a same-named union type of their values.
 */

/** Span name for annotations: minimal span units carrying rewards, tags and metadata. */
export const AGL_ANNOTATION = 'agentlightning.annotation';
/** Span name for messages and logs. */
export const AGL_MESSAGE = 'agentlightning.message';
/** Span name for custom objects. */
export const AGL_OBJECT = 'agentlightning.object';
/** Span name for exceptions (written by the exception emitter). */
export const AGL_EXCEPTION = 'agentlightning.exception';
/** Span name for functions or code blocks wrapped as operations. */
export const AGL_OPERATION = 'agentlightning.operation';
/** Span name for reward operations. */
export const AGL_REWARD = 'agentlightning.reward';
/** Span name for virtual operations (derived spans, e.g. roots built by adapters). */
export const AGL_VIRTUAL = 'agentlightning.virtual';

/** Resource attribute names used in Agent Lightning spans. */
export const LightningResourceAttributes = Object.freeze({
  ROLLOUT_ID: 'agentlightning.rollout_id',
  ATTEMPT_ID: 'agentlightning.attempt_id',
  SPAN_SEQUENCE_ID: 'agentlightning.span_sequence_id',
  /** Which tracer created the span. */
  TRACER_NAME: 'agentlightning.tracer.name',
} as const);
export type LightningResourceAttributes =
  (typeof LightningResourceAttributes)[keyof typeof LightningResourceAttributes];

/** Attribute names that commonly appear in Agent Lightning spans. */
export const LightningSpanAttributes = Object.freeze({
  /** Prefix: `agentlightning.reward.{i}.name` / `agentlightning.reward.{i}.value` (see {@link RewardAttributes}). */
  REWARD: 'agentlightning.reward',
  /** Links the span to another span or to objects such as requests/responses (see {@link LinkAttributes}). */
  LINK: 'agentlightning.link',
  TAG: 'agentlightning.tag',
  MESSAGE_BODY: 'agentlightning.message.body',
  /** Fully qualified type name of the object in an object span. */
  OBJECT_TYPE: 'agentlightning.object.type',
  /** Literal value (str, int, bool, …) in an object span. */
  OBJECT_LITERAL: 'agentlightning.object.literal',
  /** JSON-serialised value in an object span. */
  OBJECT_JSON: 'agentlightning.object.json',
  OPERATION_NAME: 'agentlightning.operation.name',
  OPERATION_INPUT: 'agentlightning.operation.input',
  OPERATION_OUTPUT: 'agentlightning.operation.output',
} as const);
export type LightningSpanAttributes =
  (typeof LightningSpanAttributes)[keyof typeof LightningSpanAttributes];

/**
 * Keys of one reward dimension: `{"agentlightning.reward.0.name": "efficiency",
 * "agentlightning.reward.0.value": 0.75}`. The first reward in the list is the primary one.
 */
export const RewardAttributes = Object.freeze({
  REWARD_NAME: 'name',
  REWARD_VALUE: 'value',
} as const);
export type RewardAttributes = (typeof RewardAttributes)[keyof typeof RewardAttributes];

/** One reward dimension (upstream `RewardPydanticModel`). */
export interface RewardModel {
  name: string;
  value: number;
}

/** Link kinds: link to spans whose attribute `key_match` equals `value_match`. */
export const LinkAttributes = Object.freeze({
  /** The attribute key to match on target spans (`trace_id` and `span_id` address spans directly). */
  KEY_MATCH: 'key_match',
  /** The attribute value to match on those keys. */
  VALUE_MATCH: 'value_match',
} as const);
export type LinkAttributes = (typeof LinkAttributes)[keyof typeof LinkAttributes];

/** One link (upstream `LinkPydanticModel`). */
export interface LinkModel {
  key_match: string;
  value_match: string;
}

/** @deprecated Use the `AGL_*` span names and {@link LightningResourceAttributes} instead. */
export const SpanNames = Object.freeze({
  REWARD: 'agentlightning.reward',
  MESSAGE: 'agentlightning.message',
  OBJECT: 'agentlightning.object',
  EXCEPTION: 'agentlightning.exception',
  VIRTUAL: 'agentlightning.virtual',
  ROLLOUT_ID: 'agentlightning.rollout_id',
  ATTEMPT_ID: 'agentlightning.attempt_id',
  SPAN_SEQUENCE_ID: 'agentlightning.span_sequence_id',
} as const);
/** @deprecated */
export type SpanNames = (typeof SpanNames)[keyof typeof SpanNames];

/** @deprecated Use {@link LightningSpanAttributes} instead. */
export const SpanAttributeNames = Object.freeze({
  MESSAGE: 'message',
  OBJECT: 'object',
} as const);
/** @deprecated */
export type SpanAttributeNames = (typeof SpanAttributeNames)[keyof typeof SpanAttributeNames];

/** `agentlightning.reward.{index}.{field}`, e.g. `rewardAttributeKey(0, RewardAttributes.REWARD_VALUE)`. */
export const rewardAttributeKey = (index: number, field: RewardAttributes): string =>
  `${LightningSpanAttributes.REWARD}.${index}.${field}`;
