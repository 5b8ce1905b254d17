// Python scripts run to completion: plain, with JSON on stdin and stdout, or printing a `SUMMARY {json}` line.
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { PYTHON, pythonEnv, requirePython } from './venv.js';

export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the script wrote to the result channel (fd 3, named by ARCLIGHT_RESULT_FD). */
  result: string;
}

/** Names the file descriptor a script writes its JSON answer to (`os.fdopen(int(os.environ[...]), "w")`). */
export const RESULT_FD_ENV = 'ARCLIGHT_RESULT_FD';

export interface RunPythonOptions {
  /** Added to (and overriding) `pythonEnv()`. */
  env?: Record<string, string>;
  /** Written to the script's stdin (closed at once without it). */
  input?: string;
}

/** Runs `PYTHON args…` to completion; rejects when the venv is missing or the process cannot start. */
export async function runPython(
  args: string[],
  options: RunPythonOptions = {},
): Promise<PythonResult> {
  requirePython();
  return new Promise((resolve, reject) => {
    // fd 3 is the script's result channel (see runPythonJson): libraries that print to stdout from
    // background threads or from handlers bound at import time cannot corrupt it.
    const child = spawn(PYTHON, args, {
      env: pythonEnv({ [RESULT_FD_ENV]: '3', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const result: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => result.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, result: Buffer.concat(result).toString('utf8') }),
    );
    // A script that exits without reading its input must not crash the test with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
  });
}

/**
 * Runs a script that reads JSON on stdin and writes its JSON answer to the result channel (fd 3, see
 * RESULT_FD_ENV); rejects with its stderr when it fails.
 */
export async function runPythonJson<T>(
  args: string[],
  input: unknown,
  options: Omit<RunPythonOptions, 'input'> = {},
): Promise<T> {
  const { code, stderr, result } = await runPython(args, {
    ...options,
    input: JSON.stringify(input),
  });
  if (code !== 0)
    throw new Error(`${basename(args[0] ?? 'python')} exited with ${code}:\n${tail(stderr)}`);
  return JSON.parse(result) as T;
}

export interface SummaryOptions {
  /** The line's prefix (default `SUMMARY`). */
  marker?: string;
  /** Accept the line whatever the exit code (for scripts that exit 1 after reporting failed checks). */
  anyExitCode?: boolean;
}

/** The JSON a script printed on its `<marker> ` line; throws with the output when it failed or printed none. */
export function summaryOf<T = Record<string, unknown>>(
  result: PythonResult,
  options: SummaryOptions = {},
): T {
  const prefix = `${options.marker ?? 'SUMMARY'} `;
  const line = result.stdout.split('\n').find((l) => l.startsWith(prefix));
  if (!line || (result.code !== 0 && !options.anyExitCode)) {
    throw new Error(
      `Python script failed (exit ${result.code}, ${line ? 'with' : 'no'} ${prefix.trim()} line).\n` +
        `--- stdout ---\n${tail(result.stdout)}\n--- stderr ---\n${tail(result.stderr)}`,
    );
  }
  return JSON.parse(line.slice(prefix.length)) as T;
}

function tail(text: string): string {
  return text.slice(-8000);
}
