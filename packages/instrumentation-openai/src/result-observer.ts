import { isThenable } from '@arclight/instrumentation';
import type { CallRecorder } from './call-recorder.js';
import { safely } from './safely.js';
import { isStreamLike, observeStream } from './stream-observer.js';

/** The internals of the SDK's `APIPromise` (majors 6 and 7) used here; all but `_thenUnwrap` optional. */
interface APIPromiseLike extends PromiseLike<unknown> {
  _thenUnwrap(transform: (data: unknown, props: unknown) => unknown): APIPromiseLike;
  responsePromise?: PromiseLike<unknown>;
  parseResponse?: (...args: unknown[]) => unknown;
  parsedPromise?: unknown;
  asResponse?: (...args: unknown[]) => PromiseLike<unknown>;
}

function isAPIPromise(value: unknown): value is APIPromiseLike {
  return isThenable(value) && typeof (value as Partial<APIPromiseLike>)._thenUnwrap === 'function';
}

/** Hands the parsed result to the recorder (streams are observed in place) and returns it unchanged. */
function receive(recorder: CallRecorder, data: unknown): unknown {
  safely(
    'result',
    () => {
      // A non-recording span (sampled out, no-op tracer) needs no data: skip the stream observer.
      if (isStreamLike(data) && recorder.span.isRecording()) observeStream(data, recorder);
      else recorder.succeed(data);
    },
    undefined,
  );
  return data;
}

/**
 * Observes what `create` returned without changing how the caller uses it. For an `APIPromise` the result
 * is observed through `_thenUnwrap`, which returns another `APIPromise` over the same HTTP response instead
 * of consuming it (calling `.then` would parse the body and break `asResponse()` and SDK helpers that call
 * `create` internally, like `chat.completions.parse`), so `.withResponse()` and `.asResponse()` keep working.
 * Request failures are seen on the shared `responsePromise`, parse failures through `parseResponse`.
 */
export function observeResult(result: unknown, recorder: CallRecorder): unknown {
  if (isAPIPromise(result)) {
    safely('request error hook', () => hookRequestErrors(result, recorder), undefined);
    safely('parse error hook', () => hookParseErrors(result, recorder), undefined);
    const unwrapped = result._thenUnwrap((data) => receive(recorder, data));
    safely('raw response hook', () => hookRawResponse(unwrapped, recorder), undefined);
    return unwrapped;
  }
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (data) => receive(recorder, data),
      (error: unknown) => {
        recorder.fail(error);
        throw error;
      },
    );
  }
  return receive(recorder, result);
}

function hookRequestErrors(promise: APIPromiseLike, recorder: CallRecorder): void {
  promise.responsePromise?.then(undefined, (error: unknown) => recorder.fail(error));
}

function hookParseErrors(promise: APIPromiseLike, recorder: CallRecorder): void {
  const parse = promise.parseResponse;
  if (typeof parse !== 'function') return;
  promise.parseResponse = async function parseObserved(this: unknown, ...args: unknown[]) {
    try {
      return await parse.apply(this, args);
    } catch (error) {
      recorder.fail(error);
      throw error;
    }
  };
}

/**
 * `asResponse()` alone hands the unread body to the caller, so the transform never runs: end the span
 * once the response arrives unless a parse was requested too (`withResponse()` parses first).
 */
function hookRawResponse(promise: APIPromiseLike, recorder: CallRecorder): void {
  const asResponse = promise.asResponse;
  if (typeof asResponse !== 'function') return;
  promise.asResponse = function asResponseObserved(this: APIPromiseLike, ...args: unknown[]) {
    const response = asResponse.apply(this, args);
    if (this.parsedPromise === undefined) {
      response.then(
        () => {
          if (this.parsedPromise === undefined) recorder.endRaw();
        },
        () => undefined,
      );
    }
    return response;
  };
}
