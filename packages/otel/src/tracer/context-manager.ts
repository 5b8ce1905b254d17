import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

const PROBE = createContextKey('arclight.otel.context-probe');

/** Whether OpenTelemetry's global context manager carries an active context into a callback. */
export function hasWorkingContextManager(): boolean {
  const probe = ROOT_CONTEXT.setValue(PROBE, true);
  return context.with(probe, () => context.active().getValue(PROBE) === true);
}

/**
 * Makes sure OpenTelemetry has a context manager, so that spans started inside an active span become its
 * children. An application that registered one (e.g. through `NodeTracerProvider.register()`) keeps it;
 * otherwise an `AsyncLocalStorageContextManager` is installed globally. Returns whether a working context
 * manager is in place afterwards.
 */
export function ensureContextManager(): boolean {
  if (hasWorkingContextManager()) return true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return hasWorkingContextManager();
}
