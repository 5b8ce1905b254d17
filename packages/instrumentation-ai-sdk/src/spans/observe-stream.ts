import { asRecord, type JsonRecord } from '@arclight/core';
import { safely } from '../safely.js';
import type { ModelCallSpan } from './model-call-span.js';
import { StreamAccumulator } from './stream-accumulator.js';

/**
 * Returns the provider's stream result with its stream observed in place: every part is passed on unchanged
 * and folded into the call's outcome; the span ends when the stream ends, errors or is cancelled.
 */
export function observeStreamResult(result: JsonRecord, call: ModelCallSpan): JsonRecord {
  const source = result.stream;
  const requestBody = asRecord(result.request)?.body;
  if (!(source instanceof ReadableStream)) {
    call.end({ requestBody, streaming: true });
    return result;
  }
  const accumulator = new StreamAccumulator();
  const outcome = () => safely('stream outcome', () => accumulator.finish(), undefined);
  const reader = source.getReader();
  const observed = new ReadableStream<unknown>(
    {
      async pull(controller) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          call.end({ outcome: outcome(), requestBody, streaming: true, error, partial: 'error' });
          throw error;
        }
        if (next.done) {
          call.end({ outcome: outcome(), requestBody, streaming: true, error: accumulator.error });
          controller.close();
          return;
        }
        const part = next.value;
        safely('stream part', () => accumulator.add(part), undefined);
        controller.enqueue(part);
      },
      async cancel(reason) {
        call.end({ outcome: outcome(), requestBody, streaming: true, partial: 'cancelled' });
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { ...result, stream: observed };
}
