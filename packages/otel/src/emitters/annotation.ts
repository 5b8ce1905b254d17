import {
  AGL_ANNOTATION,
  isPlainRecord,
  type SpanCoreFields,
  ValidationError,
} from '@arclight/core';
import { flattenAttributes } from '../attributes/flatten.js';
import { checkAttributesSanity, sanitizeAttributes } from '../attributes/sanitize.js';
import { type EmitOptions, emitSpan, STATUS_OK } from './emit-span.js';

/**
 * Upstream `emit_annotation`: an `agentlightning.annotation` span (status OK) carrying `annotation` flattened
 * to dotted keys. After flattening every value must be a string, number, boolean or a list of one of those;
 * anything else (null, a Date, a class instance, …) raises `ValidationError`. Rewards, tags and links are
 * annotations (see `emitReward`, `makeTagAttributes`, `makeLinkAttributes`).
 */
export function emitAnnotation(
  annotation: Record<string, unknown>,
  options: EmitOptions = {},
): SpanCoreFields {
  if (!isPlainRecord(annotation)) {
    throw new ValidationError('annotation must be a plain object of attributes');
  }
  const flat = flattenAttributes(annotation);
  checkAttributesSanity(flat);
  return emitSpan(AGL_ANNOTATION, sanitizeAttributes(flat), { ...options, status: STATUS_OK });
}
