import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationError } from '@arclight/core';

/** The package's `prompts/` folder (shipped next to `dist/`). */
export const PROMPTS_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url));

/** APO's textual-gradient prompts (one is picked at random per critique). */
export const DEFAULT_GRADIENT_PROMPT_FILES: readonly string[] = [1, 2, 3].map((n) =>
  join(PROMPTS_DIR, `text-gradient-${n}.md`),
);

/** APO's apply-edit prompts (one is picked at random per edit). */
export const DEFAULT_APPLY_EDIT_PROMPT_FILES: readonly string[] = [1, 2].map((n) =>
  join(PROMPTS_DIR, `apply-edit-${n}.md`),
);

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const ROLE_MARKER = /^<!--\s*role:\s*(system|user|assistant)\s*-->[ \t]*$/gm;

/**
 * Splits a prompt file into chat messages. A file is text with role markers on their own lines
 * (`<!-- role: system -->`, `<!-- role: user -->`, `<!-- role: assistant -->`); each marker starts a message
 * that runs to the next marker. Text before the first marker (notes about the file) is not sent.
 */
export function parsePromptFile(text: string, source = 'prompt'): PromptMessage[] {
  const markers = [...text.matchAll(ROLE_MARKER)];
  if (markers.length === 0) {
    throw new ValidationError(
      `${source}: no role marker found; start each message with a line like "<!-- role: user -->"`,
    );
  }
  return markers.map((marker, i) => {
    const start = marker.index + marker[0].length;
    const end = markers[i + 1]?.index ?? text.length;
    return {
      role: marker[1] as PromptMessage['role'],
      content: text.slice(start, end).trim(),
    };
  });
}

/**
 * Replaces `{name}` for every name in `values`, in one pass (inserted text is not scanned again, so a prompt
 * template's own `{placeholders}` survive); other braces are left as they are.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}

const cache = new Map<string, PromptMessage[]>();

/** Reads (once) and parses a prompt file, then fills its placeholders. */
export function renderPromptFile(
  path: string,
  values: Readonly<Record<string, string>>,
): PromptMessage[] {
  let messages = cache.get(path);
  if (!messages) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ValidationError(
        `prompt file ${path}: cannot be read (${(error as Error).message})`,
      );
    }
    messages = parsePromptFile(text, path);
    cache.set(path, messages);
  }
  return messages.map((m) => ({ role: m.role, content: fillPlaceholders(m.content, values) }));
}

/** The file name, for logs and progress events. */
export const promptFileName = (path: string): string => basename(path);
