import { ValidationError } from '@arclight/core';
import { trace } from '@opentelemetry/api';
import {
  DEFAULT_DELIVERY_QUEUE_OPTIONS,
  type DeliveryQueueOptions,
} from '../delivery/delivery-queue.js';
import type { SpanDestination } from '../delivery/destination.js';
import { InMemorySpanDestination } from '../delivery/memory-destination.js';
import { OtlpSpanDestination } from '../delivery/otlp-destination.js';
import { StoreSpanDestination } from '../delivery/store-destination.js';
import { isOtlpCapableStore, type LightningTracerOptions } from './options.js';
import { type TracerProviderLike, unwrapProvider } from './provider-join.js';

/** The destination a tracer's options ask for: explicit destination > OTLP endpoint > the store's path > memory. */
export function chooseDestination(options: LightningTracerOptions): SpanDestination {
  if (options.destination) return options.destination;
  const otlp = { headers: options.otlpHeaders };
  if (options.otlpEndpoint) return new OtlpSpanDestination(options.otlpEndpoint, otlp);
  const store = options.store;
  if (!store) return new InMemorySpanDestination();
  if (isOtlpCapableStore(store)) {
    const headers = { ...store.otlpTracesHeaders?.(), ...options.otlpHeaders };
    return new OtlpSpanDestination(store.otlpTracesEndpoint(), { headers });
  }
  return new StoreSpanDestination(store);
}

/** The export queue settings of the options, validated, over the defaults. */
export function queueOptionsOf(options: LightningTracerOptions): DeliveryQueueOptions {
  const resolved = { ...DEFAULT_DELIVERY_QUEUE_OPTIONS };
  for (const key of Object.keys(resolved) as Array<keyof DeliveryQueueOptions>) {
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
