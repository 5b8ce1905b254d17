import { InvalidArgumentError } from 'commander';

/** `--port`: an integer 0–65535 (0 picks a free port). */
export function parsePort(value: string): number {
  const port = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('expected an integer between 0 and 65535.');
  }
  return port;
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
};

/** `--body-limit`: bytes, optionally with a binary unit suffix (`512k`, `64mb`, `1g`). */
export function parseByteSize(value: string): number {
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const factor = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && factor !== undefined ? Number(match[1]) * factor : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new InvalidArgumentError(
      'expected a positive number of bytes, e.g. 1048576, 512k, 64mb or 1g.',
    );
  }
  return bytes;
}

/** A positive integer count (`--max-depth 64`). */
export function parsePositiveInt(value: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected a positive integer.');
  return n;
}

/** Repeatable options: collects every occurrence. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
