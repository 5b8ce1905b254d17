import { defineKey, isDigitKey } from '@arclight/core';

/**
 * Upstream `group_genai_dict` (`adapter/messages.py`): the attributes under `prefix.` as nested data. When
 * any remaining key starts with a digit segment, the result is a list — one entry per distinct index, in
 * index order (gaps close up; keys without an index are dropped), each entry grouped again; otherwise an
 * object of the plain keys, then of each dotted head grouped again (a head replaces a plain key of the
 * same name, keeping its position).
 */
export function groupGenaiDict(
  data: Readonly<Record<string, unknown>>,
  prefix: string,
): Record<string, unknown> | unknown[] {
  const relevant: [string, unknown][] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key.startsWith(`${prefix}.`)) relevant.push([key.slice(prefix.length + 1), value]);
  }
  const indexed = relevant.some(([key]) => isDigitKey(firstSegment(key)));
  if (indexed) {
    // Maps keep Python's insertion order even for digit keys (plain objects would move those first).
    const groups = new Map<number, Map<string, unknown>>();
    for (const [key, value] of relevant) {
      const head = firstSegment(key);
      if (!isDigitKey(head)) continue;
      const index = Number(head);
      let group = groups.get(index);
      if (!group) {
        group = new Map();
        groups.set(index, group);
      }
      group.set(head.length === key.length ? '' : key.slice(head.length + 1), value);
    }
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .map((index) => {
        const rebuilt: Record<string, unknown> = {};
        for (const [rest, value] of groups.get(index)!) {
          defineKey(rebuilt, `${prefix}.${rest}`, value);
        }
        return groupGenaiDict(rebuilt, prefix);
      });
  }
  const result: Record<string, unknown> = {};
  const nested = new Map<string, Record<string, unknown>>();
  for (const [key, value] of relevant) {
    const dot = key.indexOf('.');
    if (dot === -1) {
      defineKey(result, key, value);
      continue;
    }
    const head = key.slice(0, dot);
    let group = nested.get(head);
    if (!group) {
      group = {};
      nested.set(head, group);
    }
    defineKey(group, `${prefix}.${key}`, value);
  }
  for (const [head, group] of nested)
    defineKey(result, head, groupGenaiDict(group, `${prefix}.${head}`));
  return result;
}

function firstSegment(key: string): string {
  const dot = key.indexOf('.');
  return dot === -1 ? key : key.slice(0, dot);
}
