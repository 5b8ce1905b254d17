import { ValidationError } from '@arclight/core';
import type { Tracer } from '@opentelemetry/api';
import type { SpanProcessorLike } from '../otel-types.js';

/**
 * An OpenTelemetry tracer provider, structurally: any SDK's (1.x, 2.x, 3.x) or the API's global proxy. The
 * return type is loose on purpose — a provider built on another copy of `@opentelemetry/api` returns a
 * tracer of that copy's type.
 */
export interface TracerProviderLike {
  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): unknown;
}

/** What a provider of a known SDK exposes to add a processor (public in 1.x, internal in 2.x/3.x). */
interface ProviderInternals {
  addSpanProcessor?: (processor: unknown) => void;
  _activeSpanProcessor?: { _spanProcessors?: unknown[] };
  getDelegate?: () => unknown;
}

/** The real provider behind the API's global `ProxyTracerProvider`, or the provider itself. */
export function unwrapProvider(provider: TracerProviderLike): TracerProviderLike {
  const internals = provider as ProviderInternals;
  if (typeof internals.getDelegate === 'function') {
    const delegate = internals.getDelegate() as TracerProviderLike | undefined;
    if (delegate && delegate !== provider) return delegate;
  }
  return provider;
}

/** Whether `processor` is already among the provider's span processors (as far as that can be seen). */
export function hasSpanProcessor(
  provider: TracerProviderLike,
  processor: SpanProcessorLike,
): boolean {
  const list = (provider as ProviderInternals)._activeSpanProcessor?._spanProcessors;
  return Array.isArray(list) && list.includes(processor);
}

/**
 * Adds Arclight's span processor to an application's provider. SDK 1.x providers have `addSpanProcessor`;
 * SDK 2.x and 3.x providers only take processors at construction, so the processor is appended to the
 * provider's processor list (the SDKs' `MultiSpanProcessor` reads it on every span). A provider that offers
 * neither raises `ValidationError` — construct it with `spanProcessors: [tracer.spanProcessor]` instead.
 */
export function addSpanProcessor(provider: TracerProviderLike, processor: SpanProcessorLike): void {
  if (hasSpanProcessor(provider, processor)) return;
  const internals = provider as ProviderInternals;
  if (typeof internals.addSpanProcessor === 'function') {
    internals.addSpanProcessor(processor);
    return;
  }
  const list = internals._activeSpanProcessor?._spanProcessors;
  if (Array.isArray(list)) {
    list.push(processor);
    return;
  }
  const kind = provider?.constructor?.name ?? typeof provider;
  throw new ValidationError(
    `tracerProvider: cannot add Arclight's span processor to a ${kind}. Create the provider with ` +
      '`spanProcessors: [tracer.spanProcessor]` and call `tracer.useTracerProvider(provider, ' +
      '{ processorAdded: true })`, or let the tracer create its own provider.',
  );
}

/** `provider.getTracer(...)` typed as this package's API `Tracer`. */
export function tracerOf(provider: TracerProviderLike, name: string, version?: string): Tracer {
  return provider.getTracer(name, version) as Tracer;
}
