import {
  type Attributes,
  describeValue,
  LightningSpanAttributes,
  LinkAttributes,
  type LinkModel,
  ValidationError,
} from '@arclight/core';
import { flattenAttributes } from './flatten.js';
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

/**
 * Upstream `make_link_attributes`: `{"gen_ai.response.id": "r-1"}` →
 * `{"agentlightning.link.0.key_match": "gen_ai.response.id", "agentlightning.link.0.value_match": "r-1"}`.
 * The keys `trace_id` and `span_id` address spans directly (see `queryLinkedSpans` in @arclight/core).
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
