// The store contract lives in @arclight/core (algorithms, runners and tracers program against it without
// depending on an implementation); re-exported here beside the implementations.
export type {
  DequeueManyParams,
  DequeueParams,
  EnqueueRolloutParams,
  LightningStore,
  LightningStoreCapabilities,
  LightningStoreStatistics,
  PageParams,
  QueryAttemptsParams,
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
  StartAttemptParams,
  StartRolloutParams,
  UpdateAttemptParams,
  UpdateRolloutParams,
  UpdateWorkerParams,
  WaitForRolloutsParams,
} from '@arclight/core';
