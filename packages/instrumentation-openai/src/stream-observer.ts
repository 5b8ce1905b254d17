import type { StreamAccumulator } from '@arclight/core';
import { diag } from '@opentelemetry/api';
import type { CallRecorder } from './call-recorder.js';
import { safely } from './safely.js';

/** The parts of the SDK's `Stream` (majors 6 and 7) the observer relies on. */
export interface StreamLike {
  iterator: (this: unknown, ...args: unknown[]) => AsyncIterator<unknown>;
  controller?: { signal?: AbortSignal };
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

export function isStreamLike(value: unknown): value is StreamLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<StreamLike>).iterator === 'function' &&
    typeof (value as Partial<StreamLike>)[Symbol.asyncIterator] === 'function'
  );
}

interface Pending {
  recorder: CallRecorder;
  accumulator: StreamAccumulator;
}

/** Ends the span of a stream that was dropped without ever being iterated to its end. */
const dropped = new FinalizationRegistry<Pending>(({ recorder, accumulator }) => {
  recorder.succeed(
    safely('stream result', () => accumulator.result(), undefined),
    'garbage_collected',
  );
});

/**
 * Observes a `Stream` in place: its `iterator` factory (which `for await`, `tee()` and `toReadableStream()`
 * all go through) is replaced by one that feeds every chunk to the endpoint's accumulator before handing
 * it on unchanged. The caller keeps the very same object (type, `controller`, `_request_id`). The span
 * ends when the stream finishes, fails, is abandoned (`break`/`return`/`throw` in the loop), is aborted
 * through `controller.abort()`, or is garbage-collected unread.
 */
export function observeStream(stream: StreamLike, recorder: CallRecorder): void {
  const accumulator = recorder.endpoint.createAccumulator();
  const original = stream.iterator;
  const signal = stream.controller?.signal;
  let started = false;
  stream.iterator = function observedIterator(this: unknown, ...args: unknown[]) {
    const source = original.apply(this, args);
    if (started) return source; // a second read fails in the SDK; leave it alone
    started = true;
    return observe(source, accumulator, recorder, signal);
  };
  dropped.register(stream, { recorder, accumulator }, recorder);
}

/**
 * A hand-written iterator (cheaper than an async generator around `for await`): one promise hop per chunk.
 * `next()` settles the span on the source's end or error, `return()` (break / throw in the caller's loop,
 * `tee()` branches closing) on abandonment; the first of them wins.
 */
function observe(
  source: AsyncIterator<unknown>,
  accumulator: StreamAccumulator,
  recorder: CallRecorder,
  signal: AbortSignal | undefined,
): AsyncIterator<unknown> & AsyncIterable<unknown> {
  let settled = false;
  const settle = (outcome: 'completed' | 'abandoned' | 'failed', error?: unknown) => {
    if (settled) return;
    settled = true;
    dropped.unregister(recorder);
    const result = safely('stream result', () => accumulator.result(), undefined);
    if (outcome === 'failed') recorder.fail(error, result);
    else if (outcome === 'abandoned') recorder.succeed(result, 'abandoned');
    // The SDK ends an aborted stream quietly, so an abort looks like a normal end but for the signal.
    else recorder.succeed(result, signal?.aborted ? 'aborted' : undefined);
  };
  const onError = (error: unknown): never => {
    settle('failed', error);
    throw error;
  };
  return {
    next(...args: [] | [undefined]) {
      return source.next(...args).then((step) => {
        if (step.done) {
          settle('completed');
          return step;
        }
        try {
          accumulator.add(step.value);
        } catch (error) {
          diag.debug('@arclight/instrumentation-openai: stream chunk failed', error);
        }
        return step;
      }, onError);
    },
    return(value?: unknown) {
      settle('abandoned');
      return source.return
        ? source.return(value)
        : Promise.resolve({ done: true as const, value: undefined });
    },
    throw(error?: unknown) {
      settle('failed', error);
      return source.throw ? source.throw(error) : Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
