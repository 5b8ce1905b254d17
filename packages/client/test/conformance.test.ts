import { InMemoryLightningStore, SqliteLightningStore } from '@arclight/store';
import { describeLightningStoreConformance } from '@arclight/store/testing';
import { serve } from './support/served-store.js';

/**
 * The LightningStore conformance suite against `LightningStoreClient` talking to `@arclight/server`
 * (in-process, port 0) backed by each local store. The backing store gets the suite's clock and watchdog
 * debounce, so clock-driven cases run unchanged over HTTP.
 */
const REMOTE_EXCLUSIONS = [
  // addManySpans goes through OTLP (POST /v1/traces), whose answer only counts rejected spans: a remote
  // store cannot say which spans of a batch were duplicates of earlier writes (the case expects exactly
  // the stored subset back).
  'span.add-many',
  // OTLP ingestion stores each (rollout, attempt) group of a batch on its own and reports the rest as
  // rejected; a batch with one unknown attempt cannot be refused as a whole over OTLP.
  'span.add-many-atomic',
  // The HTTP contract (upstream's UpdateAttemptRequest, mirrored by @arclight/server) forbids `null` for
  // attempt fields (400), so a remote store cannot clear an attempt's metadata/last_heartbeat_time.
  'attempt.update-unset-vs-null',
];

describeLightningStoreConformance({
  name: 'LightningStoreClient → @arclight/server → InMemoryLightningStore',
  create: async ({ clock, scanDebounceSeconds }) =>
    serve(new InMemoryLightningStore({ clock, scanDebounceSeconds })),
  exclude: REMOTE_EXCLUSIONS,
});

describeLightningStoreConformance({
  name: 'LightningStoreClient → @arclight/server → SqliteLightningStore',
  create: async ({ clock, scanDebounceSeconds }) =>
    serve(new SqliteLightningStore({ path: ':memory:', clock, scanDebounceSeconds })),
  exclude: REMOTE_EXCLUSIONS,
});
