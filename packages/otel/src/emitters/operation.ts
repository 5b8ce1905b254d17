import {
  AGL_OPERATION,
  type Attributes,
  LightningSpanAttributes,
  type SpanCoreFields,
  ValidationError,
} from '@arclight/core';
import { flattenAttributes } from '../attributes/flatten.js';
import { sanitizeAttributes } from '../attributes/sanitize.js';
import { isPromiseLike } from '../is-promise-like.js';
import { resolveTracer } from '../tracer/active-tracer.js';
import { LocalSpanRecording, type SpanRecording } from '../tracer/span-recording.js';

const { OPERATION_NAME, OPERATION_INPUT, OPERATION_OUTPUT } = LightningSpanAttributes;

/**
 * Options of {@link operation}: `name` (→ `agentlightning.operation.name`), `propagate` (see `EmitOptions`);
 * every other key is an attribute of the span (flattened), as upstream's `operation(**attributes)`.
 */
export interface OperationOptions {
  name?: string;
  propagate?: boolean;
  [attribute: string]: unknown;
}

/** The handle of a scoped operation (upstream `OperationContext` used as a context manager). */
export interface OperationHandle {
  /** Positional inputs: `agentlightning.operation.input.args.<i>[.<nested>]`. */
  setInput(...args: unknown[]): void;
  /** Named inputs: `agentlightning.operation.input.<name>[.<nested>]`. */
  setNamedInput(inputs: Record<string, unknown>): void;
  /** The output: `agentlightning.operation.output[.<nested>]`. */
  setOutput(output: unknown): void;
  /** Further attributes (flattened and sanitised). */
  setAttributes(attributes: Record<string, unknown>): void;
  /** The span's core fields; available once the operation has ended. */
  span(): SpanCoreFields;
}

// biome-ignore lint/suspicious/noExplicitAny: any function may be wrapped
type AnyFunction = (this: any, ...args: any[]) => any;

export interface OperationFunction {
  /**
   * Wraps `fn` so that each call is an `agentlightning.operation` span (the active span while it runs, so
   * spans started inside become its children): `agentlightning.operation.name` = `options.name` or the
   * function's name, positional arguments as `agentlightning.operation.input.args.<i>`, the (awaited) return
   * value as `agentlightning.operation.output`. A throw or rejection is recorded (status ERROR) and re-thrown.
   */
  <F extends AnyFunction>(fn: F, options?: OperationOptions): F;
  /**
   * Runs `body` as an `agentlightning.operation` span; record inputs and output through the handle. Returns
   * what `body` returns (a promise for an async body; the span ends when it settles).
   */
  scope<T>(options: OperationOptions, body: (op: OperationHandle) => T): T;
}

function initialAttributes(options: OperationOptions, defaultName?: string): Attributes {
  const { name, propagate: _propagate, ...extra } = options;
  if (name !== undefined && OPERATION_NAME in extra) {
    throw new ValidationError(`operation: give either name or '${OPERATION_NAME}', not both`);
  }
  const attributes: Record<string, unknown> = { ...extra };
  if (name !== undefined) attributes[OPERATION_NAME] = name;
  else if (defaultName !== undefined && !(OPERATION_NAME in extra)) {
    attributes[OPERATION_NAME] = defaultName;
  }
  return sanitizeAttributes(flattenAttributes(attributes));
}

function prefixed(prefix: string, nested: Record<string, unknown>): Attributes {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flattenAttributes(nested)))
    out[`${prefix}.${key}`] = value;
  return sanitizeAttributes(out);
}

function inputArgs(args: readonly unknown[]): Attributes {
  const out: Attributes = {};
  for (const [i, value] of args.entries()) {
    Object.assign(out, prefixed(`${OPERATION_INPUT}.args`, { [i]: value }));
  }
  return out;
}

function outputAttributes(output: unknown): Attributes {
  return sanitizeAttributes(flattenAttributes({ [OPERATION_OUTPUT]: output }));
}

function run<T>(
  attributes: Attributes,
  propagate: boolean,
  body: (recording: SpanRecording) => T,
): { result: T; recording: () => SpanRecording } {
  if (propagate) {
    let captured: SpanRecording | undefined;
    const result = resolveTracer('an operation span').runInSpan(
      AGL_OPERATION,
      attributes,
      (rec) => {
        captured = rec;
        return body(rec);
      },
    );
    return { result, recording: () => captured! };
  }
  const local = new LocalSpanRecording(AGL_OPERATION, attributes);
  const finish = () => local.finalize();
  let result: T;
  try {
    result = body(local);
  } catch (error) {
    local.recordException(error);
    finish();
    throw error;
  }
  if (isPromiseLike(result)) {
    result = Promise.resolve(result).then(
      (value) => {
        finish();
        return value;
      },
      (error: unknown) => {
        local.recordException(error);
        finish();
        throw error;
      },
    ) as T;
  } else finish();
  return { result, recording: () => local };
}

function wrap<F extends AnyFunction>(fn: F, options: OperationOptions = {}): F {
  if (typeof fn !== 'function') throw new ValidationError('operation: fn must be a function');
  const attributes = initialAttributes(options, fn.name || 'anonymous');
  const propagate = options.propagate ?? true;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    return run(attributes, propagate, (recording) => {
      if (args.length > 0) recording.recordAttributes(inputArgs(args));
      const result = fn.apply(this, args);
      if (isPromiseLike(result)) {
        return Promise.resolve(result).then((value) => {
          recording.recordAttributes(outputAttributes(value));
          return value;
        });
      }
      recording.recordAttributes(outputAttributes(result));
      return result;
    }).result;
  };
  Object.defineProperty(wrapped, 'name', { value: fn.name, configurable: true });
  return wrapped as F;
}

function scope<T>(options: OperationOptions, body: (op: OperationHandle) => T): T {
  const attributes = initialAttributes(options ?? {});
  let current: SpanRecording | undefined;
  let finished: SpanCoreFields | undefined;
  const recording = (): SpanRecording => {
    if (!current) throw new Error('operation handle used outside its operation');
    return current;
  };
  const handle: OperationHandle = {
    setInput: (...args) => recording().recordAttributes(inputArgs(args)),
    setNamedInput: (inputs) => recording().recordAttributes(prefixed(OPERATION_INPUT, inputs)),
    setOutput: (output) => recording().recordAttributes(outputAttributes(output)),
    setAttributes: (extra) =>
      recording().recordAttributes(sanitizeAttributes(flattenAttributes(extra))),
    span: () => {
      if (!finished) throw new Error('the operation span is not finished yet');
      return finished;
    },
  };
  const { result, recording: rec } = run(attributes, options?.propagate ?? true, (r) => {
    current = r;
    return body(handle);
  });
  const done = () => {
    finished = rec().getRecordedSpan();
  };
  if (isPromiseLike(result)) {
    return Promise.resolve(result).finally(done) as T;
  }
  done();
  return result;
}

/** Upstream `operation`: see {@link OperationFunction}. */
export const operation: OperationFunction = Object.assign(wrap, { scope });
