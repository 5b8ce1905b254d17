import {
  type Attributes,
  describeValue,
  LightningSpanAttributes,
  LinkAttributes,
  type LinkModel,
  type Span,
  ValidationError,
} from '@arclight/core';
import { filterAndUnflattenAttributes, flattenAttributes } from './flatten.js';
import { sanitizeAttributes } from './sanitize.js';

/**
 * Upstream `make_tag_attributes`: `["fast", "reliable"]` → `{"agentlightning.tag.0": "fast",
 * "agentlightning.tag.1": "reliable"}`. Tags are free-form strings.
 */
export function makeTagAttributes(tags: readonly string[]): Attributes {
  if (!Array.isArray(tags))
    throw new ValidationError(`tags must be a list of strings, got ${describeValue(tags)}`);
  tags.forEach((tag, i) => {
    if (typeof tag !== 'string') {
      throw new ValidationError(`tags[${i}] must be a string, got ${describeValue(tag)}`);
    }
  });
  return sanitizeAttributes(
    flattenAttributes({ [LightningSpanAttributes.TAG]: [...tags] }, { expandLeafLists: true }),
  );
}

/** Upstream `extract_tags_from_attributes`: the tags written by {@link makeTagAttributes}. */
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

/**
 * Upstream `make_link_attributes`: `{"gen_ai.response.id": "r-1"}` →
 * `{"agentlightning.link.0.key_match": "gen_ai.response.id", "agentlightning.link.0.value_match": "r-1"}`.
 * The keys `trace_id` and `span_id` address spans directly (see {@link queryLinkedSpans}).
 */
export function makeLinkAttributes(links: Readonly<Record<string, string>>): Attributes {
  const list: LinkModel[] = [];
  for (const [key, value] of Object.entries(links)) {
    if (typeof value !== 'string') {
      throw new ValidationError(
        `link value for key '${key}' must be a string, got ${describeValue(value)}`,
      );
    }
    list.push({ [LinkAttributes.KEY_MATCH]: key, [LinkAttributes.VALUE_MATCH]: value });
  }
  return sanitizeAttributes(
    flattenAttributes({ [LightningSpanAttributes.LINK]: list }, { expandLeafLists: true }),
  );
}

/** Upstream `extract_links_from_attributes`: the links written by {@link makeLinkAttributes}. */
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
