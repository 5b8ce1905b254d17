import { type AttributeBag, asArray, asRecord, asString, type JsonRecord } from '@arclight/core';
import type { Run } from '@langchain/core/tracers/base';
import { LangChainAttributes } from './keys.js';

/** `run.extra.metadata` (LangChain keeps a run's metadata there). */
export function runMetadata(run: Run): JsonRecord {
  return asRecord(asRecord(run.extra)?.metadata) ?? {};
}

/** `run.extra.invocation_params` of model runs. */
export function invocationParams(run: Run): JsonRecord {
  return asRecord(asRecord(run.extra)?.invocation_params) ?? {};
}

export function runTags(run: Run): string[] {
  return asArray(run.tags).filter((t): t is string => typeof t === 'string');
}

/** The last element of `serialized.id` (the class name), or `''`. */
export function serializedClass(run: Run): string {
  const id = asArray(asRecord(run.serialized)?.id);
  return asString(id[id.length - 1]) ?? '';
}

/** `serialized.id` joined with dots (e.g. `langgraph.pregel.CompiledStateGraph`). */
export function serializedPath(run: Run): string {
  return asArray(asRecord(run.serialized)?.id)
    .filter((p): p is string => typeof p === 'string')
    .join('.');
}

/** Attributes every span of a run carries: ids, type, name, tags, metadata and LangGraph's node/step/thread. */
export function writeRunAttributes(
  bag: AttributeBag,
  run: Run,
  parentRunId: string | undefined,
): void {
  bag.set(LangChainAttributes.RUN_ID, run.id);
  bag.set(LangChainAttributes.PARENT_RUN_ID, parentRunId);
  bag.set(LangChainAttributes.RUN_TYPE, run.run_type);
  bag.set(LangChainAttributes.RUN_NAME, run.name);
  const tags = runTags(run);
  if (tags.length > 0) bag.set(LangChainAttributes.TAGS, tags);
  const metadata = runMetadata(run);
  if (Object.keys(metadata).length > 0) bag.setJson(LangChainAttributes.METADATA, metadata);
  bag.set(LangChainAttributes.NODE, asString(metadata.langgraph_node));
  bag.set(LangChainAttributes.STEP, metadata.langgraph_step);
  bag.set(LangChainAttributes.THREAD_ID, asString(metadata.thread_id));
  bag.set(LangChainAttributes.TOOL_CALL_ID, asString(asRecord(run.extra)?.tool_call_id));
}
