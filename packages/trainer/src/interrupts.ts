import type { Logger } from '@arclight/core';

export interface InterruptHandle {
  /** Aborts on the first Ctrl+C (SIGINT). */
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * While installed, the first SIGINT requests a graceful stop (upstream: `KeyboardInterrupt` sets the stop
 * event); a second one exits the process with code 130 at once. Runner processes started by the trainer
 * notice their parent's exit and stop by themselves.
 */
export function installInterruptHandler(logger: Logger): InterruptHandle {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) {
      logger.warn('Interrupted again; exiting now.');
      process.exit(130);
    }
    logger.warn('Interrupted; stopping gracefully (press Ctrl+C again to exit at once).');
    controller.abort(new Error('SIGINT'));
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
    },
  };
}
