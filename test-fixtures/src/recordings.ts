// Recorded OpenAI chat completions (JSONL of {request, response}) keyed by the request's messages + model,
// compared as canonical JSON (sorted keys, null members dropped). The first recording of a key wins.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from './hash.js';
import type { FixtureReply, JsonObject } from './types.js';

export const RECORDINGS_FILE = 'openai-chat-recordings.jsonl';

/** The key a chat request is looked up by. */
export function recordingKey(messages: unknown, model: unknown): string {
  return canonicalJson({ messages, model }, true);
}

/** The repo root: the nearest ancestor of this package whose package.json declares workspaces. */
export function findRepoRoot(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).workspaces) return dir;
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `<repo root>/../shared/fixtures/openai-chat-recordings.jsonl`, when the repo root is found. */
export function defaultRecordingsPath(): string | undefined {
  const root = findRepoRoot();
  return root ? resolve(root, '../shared/fixtures', RECORDINGS_FILE) : undefined;
}

function replyFromResponse(response: JsonObject): FixtureReply | undefined {
  const choice = (response.choices as JsonObject[] | undefined)?.[0];
  const message = choice?.message as JsonObject | undefined;
  if (!message) return undefined;
  const reply: FixtureReply = { content: (message.content as string | null | undefined) ?? null };
  const calls = message.tool_calls as JsonObject[] | undefined;
  if (Array.isArray(calls) && calls.length > 0) {
    reply.tool_calls = calls.map((c) => {
      const fn = c.function as JsonObject;
      return { id: c.id as string, name: fn.name as string, arguments: fn.arguments as string };
    });
  }
  if (typeof choice?.finish_reason === 'string') reply.finish_reason = choice.finish_reason;
  return reply;
}

/** Loads a recordings file; a missing file yields an empty map. */
export function loadRecordings(path: string): Map<string, FixtureReply> {
  const map = new Map<string, FixtureReply>();
  if (!existsSync(path)) return map;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { request?: JsonObject; response?: JsonObject };
    if (!entry.request || !entry.response) continue;
    const key = recordingKey(entry.request.messages, entry.request.model);
    const reply = replyFromResponse(entry.response);
    if (reply && !map.has(key)) map.set(key, reply);
  }
  return map;
}
