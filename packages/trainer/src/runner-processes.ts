import { type ChildProcess, fork } from 'node:child_process';
import { interruptibleSleep, type Logger } from '@arclight/core';
import { ENV } from './env.js';

/** IPC messages between a trainer and its runner processes. */
export const READY_MESSAGE = 'arclight-runner-ready';
export const STOP_MESSAGE = 'arclight-runner-stop';

export interface RunnerProcessesOptions {
  count: number;
  /** The script each runner process executes (the user's training script). */
  script: string;
  args: readonly string[];
  execArgv: readonly string[];
  /** Extra environment (on top of this process's). */
  env: Record<string, string>;
  gracefulTimeout: number;
  logger: Logger;
}

export interface RunnerExit {
  workerId: number;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Tracked {
  workerId: number;
  child: ChildProcess;
  ready: boolean;
  exit: RunnerExit | null;
  exited: Promise<RunnerExit>;
}

/**
 * The runner processes of a trainer: each re-runs the training script with `ARCLIGHT_ROLE=runner` and
 * `ARCLIGHT_WORKER_ID=<n>`, where `Trainer.fit` turns into one runner. Stopping escalates from a cooperative
 * stop message to SIGTERM to SIGKILL; children also stop by themselves when this process goes away.
 */
export class RunnerProcesses {
  private readonly tracked: Tracked[] = [];
  private fatal: ((error: Error) => void) | null = null;
  private stopping = false;

  constructor(private readonly options: RunnerProcessesOptions) {}

  /** Starts the processes. `onFatal` is called when one exits before reaching `Trainer.fit`. */
  start(onFatal: (error: Error) => void): void {
    this.fatal = onFatal;
    for (let workerId = 0; workerId < this.options.count; workerId++) this.spawn(workerId);
  }

  get pids(): number[] {
    return this.tracked.flatMap((t) => (t.child.pid === undefined ? [] : [t.child.pid]));
  }

  /** Resolves when every process has exited. */
  async waitAll(): Promise<RunnerExit[]> {
    return Promise.all(this.tracked.map((t) => t.exited));
  }

  /** Exits other than code 0 or SIGTERM (upstream's allowed exit codes 0 and -15). */
  unexpectedExits(): RunnerExit[] {
    return this.tracked
      .map((t) => t.exit)
      .filter((e): e is RunnerExit => e !== null && !(e.code === 0 || e.signal === 'SIGTERM'));
  }

  /**
   * Stops every process: the stop message, then after `gracefulTimeout` SIGTERM, then after
   * `terminateTimeout` SIGKILL. Resolves when all have exited (or SIGKILL did not help).
   */
  async shutdown(gracefulTimeout: number, terminateTimeout: number): Promise<void> {
    this.stopping = true;
    for (const t of this.alive()) {
      try {
        if (t.child.connected) t.child.send({ type: STOP_MESSAGE });
      } catch {
        // the channel closed meanwhile
      }
    }
    const steps: Array<[number, NodeJS.Signals | null]> = [
      [gracefulTimeout, 'SIGTERM'],
      [terminateTimeout, 'SIGKILL'],
      [terminateTimeout, null],
    ];
    for (const [wait, next] of steps) {
      if (await this.allExitWithin(wait)) return;
      const alive = this.alive();
      if (!next) {
        this.options.logger.error(
          `Runner processes did not exit even after SIGKILL: ${alive.map(describe).join(', ')}`,
        );
        return;
      }
      this.options.logger.warn(
        `Runner processes still alive; sending ${next} to ${alive.map(describe).join(', ')}`,
      );
      for (const t of alive) t.child.kill(next);
    }
  }

  private alive(): Tracked[] {
    return this.tracked.filter((t) => t.exit === null);
  }

  private async allExitWithin(seconds: number): Promise<boolean> {
    const all = Promise.all(this.alive().map((t) => t.exited)).then(() => true);
    const timeout = new AbortController();
    const late = interruptibleSleep(seconds, timeout.signal).then(() => false);
    const result = await Promise.race([all, late]);
    timeout.abort();
    return result;
  }

  private spawn(workerId: number): void {
    const { options } = this;
    const child = fork(options.script, [...options.args], {
      execArgv: [...options.execArgv],
      env: {
        ...process.env,
        ...options.env,
        [ENV.WORKER_ID]: String(workerId),
        [ENV.GRACEFUL_TIMEOUT]: String(options.gracefulTimeout),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const tracked: Tracked = {
      workerId,
      child,
      ready: false,
      exit: null,
      exited: new Promise<RunnerExit>((resolve) => {
        child.once('exit', (code, signal) => {
          tracked.exit = { workerId, pid: child.pid, code, signal };
          resolve(tracked.exit);
          this.onExit(tracked);
        });
      }),
    };
    child.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === READY_MESSAGE) tracked.ready = true;
    });
    child.on('error', (error) => {
      options.logger.error(`[Worker-${workerId}] Runner process error.`, error);
    });
    this.tracked.push(tracked);
  }

  private onExit(tracked: Tracked): void {
    const { exit } = tracked;
    if (!exit || this.stopping) return;
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    if (!tracked.ready) {
      this.fatal?.(
        new Error(
          `Runner process Worker-${tracked.workerId} (pid ${exit.pid}) exited with ${how} before reaching ` +
            `Trainer.fit()/dev(). Runner processes re-run "${this.options.script}" with ${ENV.ROLE}=runner; ` +
            'that script must build the Trainer and call fit()/dev() as the main process does ' +
            '(set `runnerScript` when the training script is another file).',
        ),
      );
    } else if (exit.code !== 0) {
      this.options.logger.warn(
        `Runner process Worker-${tracked.workerId} (pid ${exit.pid}) exited with ${how}.`,
      );
    }
  }
}

function describe(t: Tracked): string {
  return `Worker-${t.workerId} (pid ${t.child.pid})`;
}
