import { ValidationError } from '@arclight/core';

/** Which side(s) of training a process runs (upstream `AGL_CURRENT_ROLE`). */
export type Role = 'algorithm' | 'runner' | 'both';

export const ENV = {
  /** `algorithm` | `runner` | `both` (default `both`). */
  ROLE: 'ARCLIGHT_ROLE',
  /** Host the store server binds to (algorithm side) or runners connect to (runner side). */
  SERVER_HOST: 'ARCLIGHT_SERVER_HOST',
  SERVER_PORT: 'ARCLIGHT_SERVER_PORT',
  /** Set by the trainer in the runner processes it starts: the worker number. */
  WORKER_ID: 'ARCLIGHT_WORKER_ID',
  /** Set by the trainer in the runner processes it starts: seconds to finish after the parent vanished. */
  GRACEFUL_TIMEOUT: 'ARCLIGHT_GRACEFUL_TIMEOUT',
} as const;

export const DEFAULT_SERVER_HOST = '127.0.0.1';
export const DEFAULT_SERVER_PORT = 4747;

/** The role: the option, else `ARCLIGHT_ROLE`, else `both`. */
export function resolveRole(option: Role | undefined, env: NodeJS.ProcessEnv = process.env): Role {
  const value = option ?? env[ENV.ROLE] ?? 'both';
  if (value !== 'algorithm' && value !== 'runner' && value !== 'both') {
    throw new ValidationError(
      `role: expected "algorithm", "runner" or "both" (option or ${ENV.ROLE}), got "${value}"`,
    );
  }
  return value;
}

export function resolveHost(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return option ?? (env[ENV.SERVER_HOST] || DEFAULT_SERVER_HOST);
}

export function resolvePort(
  option: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const raw = option ?? (env[ENV.SERVER_PORT] ? Number(env[ENV.SERVER_PORT]) : DEFAULT_SERVER_PORT);
  if (!Number.isInteger(raw) || raw < 0 || raw > 65535) {
    throw new ValidationError(
      `port: expected an integer between 0 and 65535 (option or ${ENV.SERVER_PORT}), got ${String(raw)}`,
    );
  }
  return raw;
}

/**
 * The worker number when this process is a runner process started by a trainer (it has
 * `ARCLIGHT_WORKER_ID` and an IPC channel to its parent), else null.
 */
export function spawnedWorkerId(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env[ENV.WORKER_ID];
  if (raw === undefined || typeof process.send !== 'function') return null;
  const id = Number(raw);
  return Number.isInteger(id) && id >= 0 ? id : null;
}

/** Whether this process is a runner process started by a trainer (guard one-time side effects with it). */
export function isRunnerProcess(): boolean {
  return spawnedWorkerId() !== null;
}

/** `http://host:port`, with IPv6 hosts in brackets. */
export function serverUrl(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}
