import { filterAndUnflattenAttributes } from '../attributes/unflatten.js';
import { ValidationError } from '../errors.js';
import { LightningSpanAttributes, type LinkModel } from '../semconv.js';
import type { Span } from '../types/span.js';

// Readers of the tag and link attributes `makeTagAttributes` / `makeLinkAttributes` (@arclight/otel) write.

/** Upstream `extract_tags_from_attributes`: the tags written by `makeTagAttributes`. */
export function extractTagsFromAttributes(attributes: Readonly<Record<string, unknown>>): string[] {
  const tags = filterAndUnflattenAttributes({ ...attributes }, LightningSpanAttributes.TAG);
  const list = Array.isArray(tags) ? tags : Object.keys(tags).length === 0 ? [] : null;
  if (!list?.every((tag) => typeof tag === 'string')) {
    throw new ValidationError(
      `${LightningSpanAttributes.TAG}.* attributes do not form a list of strings`,
    );
  }
  return list as string[];
}

/** Upstream `extract_links_from_attributes`: the links written by `makeLinkAttributes`. */
export function extractLinksFromAttributes(
  attributes: Readonly<Record<string, unknown>>,
): LinkModel[] {
  const links = filterAndUnflattenAttributes({ ...attributes }, LightningSpanAttributes.LINK);
  const list = Array.isArray(links) ? links : Object.keys(links).length === 0 ? [] : null;
  const valid = (item: unknown): item is LinkModel =>
    typeof item === 'object' &&
    item !== null &&
    typeof (item as LinkModel).key_match === 'string' &&
    typeof (item as LinkModel).value_match === 'string';
  if (!list?.every(valid)) {
    throw new ValidationError(
      `${LightningSpanAttributes.LINK}.* attributes do not form a list of {key_match, value_match}`,
    );
  }
  return list.map((link) => ({ key_match: link.key_match, value_match: link.value_match }));
}

/** What {@link queryLinkedSpans} reads of a span. */
export type LinkableSpan = Pick<Span, 'attributes' | 'trace_id' | 'span_id'>;

/**
 * Upstream `query_linked_spans`: the spans matching every link. `trace_id` / `span_id` compare with the
 * span's own ids; any other key must be an attribute exactly equal to `value_match`.
 */
export function queryLinkedSpans<T extends LinkableSpan>(
  spans: readonly T[],
  links: readonly LinkModel[],
): T[] {
  return spans.filter((span) =>
    links.every((link) => {
      if (link.key_match === 'trace_id') return span.trace_id === link.value_match;
      if (link.key_match === 'span_id') return span.span_id === link.value_match;
      return span.attributes?.[link.key_match] === link.value_match;
    }),
  );
}
