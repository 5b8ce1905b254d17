import { ValidationError } from '@arclight/core';
import { trace } from '@opentelemetry/api';
import { DEFAULT_EXPORT_QUEUE_OPTIONS, type ExportQueueOptions } from '../export/export-queue.js';
import { InMemorySpanSink } from '../export/memory-sink.js';
import { OtlpSpanSink } from '../export/otlp-sink.js';
import type { SpanSink } from '../export/span-sink.js';
import { StoreSpanSink } from '../export/store-sink.js';
import { isOtlpCapableStore, type LightningTracerOptions } from './options.js';
import { type TracerProviderLike, unwrapProvider } from './provider-join.js';

/** The sink a tracer's options ask for: explicit sink > OTLP endpoint > the store's path > memory. */
export function chooseSink(options: LightningTracerOptions): SpanSink {
  if (options.sink) return options.sink;
  const otlp = { headers: options.otlpHeaders };
  if (options.otlpEndpoint) return new OtlpSpanSink(options.otlpEndpoint, otlp);
  const store = options.store;
  if (!store) return new InMemorySpanSink();
  if (isOtlpCapableStore(store)) {
    const headers = { ...store.otlpTracesHeaders?.(), ...options.otlpHeaders };
    return new OtlpSpanSink(store.otlpTracesEndpoint(), { headers });
  }
  return new StoreSpanSink(store);
}

/** The export queue settings of the options, validated, over the defaults. */
export function queueOptionsOf(options: LightningTracerOptions): ExportQueueOptions {
  const resolved = { ...DEFAULT_EXPORT_QUEUE_OPTIONS };
  for (const key of Object.keys(resolved) as Array<keyof ExportQueueOptions>) {
    const value = options[key];
    if (value !== undefined) resolved[key] = checkNonNegative(key, value);
  }
  if (resolved.maxExportBatchSize < 1) {
    throw new ValidationError('maxExportBatchSize must be at least 1');
  }
  return resolved;
}

/** The SDK provider registered globally with `@opentelemetry/api`; raises when there is none. */
export function globalSdkProvider(): TracerProviderLike {
  const provider = unwrapProvider(trace.getTracerProvider());
  if (provider.constructor?.name === 'NoopTracerProvider') {
    throw new ValidationError(
      'useGlobalTracerProvider: no SDK tracer provider is registered with @opentelemetry/api',
    );
  }
  return provider;
}

export function checkNonNegative(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ValidationError(`${field} must be a non-negative number, got ${String(value)}`);
  }
  return value;
}
