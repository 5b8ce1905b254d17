import type { OpenAIApiKind } from '@arclight/core';

/** What a request asks the gateway for. */
export type RouteTarget =
  | { kind: 'generate'; api: OpenAIApiKind }
  | { kind: 'messages' }
  | { kind: 'models'; id?: string };

export interface ParsedRoute {
  /** From `/rollout/{rollout_id}/attempt/{attempt_id}/…` or the `x-rollout-id` / `x-attempt-id` headers. */
  rolloutId?: string;
  attemptId?: string;
  target?: RouteTarget;
  /** The path after the rollout prefix (for error messages). */
  path: string;
}

const PREFIX = /^\/rollout\/([^/]+)\/attempt\/([^/]+)(\/.*)?$/;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function target(path: string): RouteTarget | undefined {
  const rest = path.startsWith('/v1/') ? path.slice(3) : path;
  switch (rest) {
    case '/chat/completions':
      return { kind: 'generate', api: 'chat' };
    case '/completions':
      return { kind: 'generate', api: 'completions' };
    case '/responses':
      return { kind: 'generate', api: 'responses' };
    case '/messages':
      return { kind: 'messages' };
    case '/models':
      return { kind: 'models' };
  }
  if (rest.startsWith('/models/')) return { kind: 'models', id: decode(rest.slice(8)) };
  return undefined;
}

/** Splits `/rollout/{r}/attempt/{a}/v1/…` (upstream `LLMProxy`'s prefix) or plain `/v1/…` + headers. */
export function parseRoute(
  pathname: string,
  headers: Record<string, string | string[] | undefined>,
): ParsedRoute {
  const match = PREFIX.exec(pathname);
  if (match) {
    const path = match[3] ?? '/';
    return {
      rolloutId: decode(match[1]!),
      attemptId: decode(match[2]!),
      target: target(path),
      path,
    };
  }
  const header = (name: string) => {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    return text === undefined || text === '' ? undefined : text;
  };
  return {
    rolloutId: header('x-rollout-id'),
    attemptId: header('x-attempt-id'),
    target: target(pathname),
    path: pathname,
  };
}
