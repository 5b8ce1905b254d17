import { AttributeBag, type AttributeEncoding } from '@arclight/core';
import { safeJson } from '../json.js';

/** LangChain values (messages, documents, runs) become JSON through `safeJson` (cycles, `toJSON`, bigints). */
export const LANGCHAIN_ENCODING: AttributeEncoding = Object.freeze({ toJson: safeJson });

/** An attribute bag for LangChain spans (see {@link LANGCHAIN_ENCODING}). */
export function newAttributeBag(): AttributeBag {
  return new AttributeBag(LANGCHAIN_ENCODING);
}
