import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  Link,
  Span,
  SpanContext,
  SpanStatus,
  TimeInput,
} from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import { safely } from '../safely.js';
import { readProviderMetadata } from '../spans/model-call-outcome.js';
import type { ModelCallSpan } from '../spans/model-call-span.js';
import { receiveTokenIds, type TokenIds } from '../token-ids-report.js';
import { modelCallOutcome } from './sdk-span-attributes.js';

/**
 * The span `ai` 5 / 6 hold for one provider call (`ai.generateText.doGenerate`, `ai.streamText.doStream`, …).
 * It stands for a {@link ModelCallSpan} (same span context, so the provider call and anything nested in it
 * become children of the LLM-call span): the attributes the SDK sets are collected, and when the SDK ends the
 * span they are converted into the LLM-call layout (`gen_ai.prompt.N.*`, `gen_ai.completion.0.*`, usage,
 * token ids, `tool_call.<name>` children) by the same code as `ai` 7's integration. Token ids the middleware
 * reports straight to this span fill in when the SDK left the provider metadata out (`ai` 6 with
 * `recordOutputs: false`).
 */
export class SdkModelSpan implements Span {
  private readonly attributes: Attributes;
  private error: Error | undefined;
  private ended = false;
  private reported: TokenIds | undefined;

  constructor(
    private readonly call: ModelCallSpan,
    initial: Attributes,
    private readonly streaming: boolean,
    /** Where the call started (the operation span's context). */
    readonly parentContext: Context,
  ) {
    this.attributes = { ...initial };
    receiveTokenIds(this, (ids) => {
      this.reported = ids;
    });
  }

  spanContext(): SpanContext {
    return this.call.span.spanContext();
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (value !== undefined) this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined) this.attributes[key] = value;
    }
    return this;
  }

  addEvent(name: string, attributes?: Attributes | TimeInput, time?: TimeInput): this {
    this.call.span.addEvent(name, attributes, time);
    return this;
  }

  addLink(link: Link): this {
    this.call.span.addLink(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.call.span.addLinks(links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (status.code === SpanStatusCode.ERROR) {
      this.error ??= new Error(status.message ?? 'model call failed');
    }
    return this;
  }

  /** The LLM-call rule names this span; the SDK's renames are ignored. */
  updateName(): this {
    return this;
  }

  recordException(exception: Exception): void {
    this.error = exceptionAsError(exception);
  }

  isRecording(): boolean {
    return !this.ended && this.call.span.isRecording();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const outcome = safely(
      'model call outcome',
      () => {
        const read = modelCallOutcome(this.attributes);
        readProviderMetadata(read, { arclight: this.reported });
        return read;
      },
      undefined,
    );
    this.call.end(
      this.error !== undefined
        ? { error: this.error, streaming: this.streaming }
        : { outcome, streaming: this.streaming },
    );
  }
}

function exceptionAsError(exception: Exception): Error {
  if (exception instanceof Error) return exception;
  if (typeof exception === 'string') return new Error(exception);
  const error = new Error(exception.message ?? 'model call failed');
  if (exception.name !== undefined) error.name = exception.name;
  return error;
}
