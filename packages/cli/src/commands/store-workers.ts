import cluster, { type Worker } from 'node:cluster';

/** Messages a store worker process sends to the primary. */
export type WorkerMessage =
  | { type: 'arclight-store-listening'; url: string }
  | { type: 'arclight-store-failed'; message: string };

export const isStoreWorker = (): boolean => cluster.isWorker;

/** In a worker: tells the primary how startup went. */
export function reportToPrimary(message: WorkerMessage): void {
  process.send?.(message);
}

export interface PrimaryOptions {
  workers: number;
  description: string;
  write: (line: string) => void;
  fail: (message: string) => number;
}

/**
 * The primary of `arclight store --workers N`: forks N worker processes (each runs the same command and
 * serves on the shared port through Node's cluster module), prints the address once all of them listen,
 * replaces a worker that dies while serving, and on SIGINT/SIGTERM stops every worker (each drains its
 * in-flight requests) before exiting. Resolves to the exit code.
 */
export async function runPrimary(options: PrimaryOptions): Promise<number> {
  let stopping = false;
  const workers = new Set<Worker>();

  const fork = (): Promise<string> =>
    new Promise((resolveUrl, reject) => {
      const worker = cluster.fork();
      workers.add(worker);
      let started = false;
      worker.on('message', (message: WorkerMessage) => {
        if (message?.type === 'arclight-store-listening') {
          started = true;
          resolveUrl(message.url);
        } else if (message?.type === 'arclight-store-failed') reject(new Error(message.message));
      });
      worker.on('exit', (code, signal) => {
        workers.delete(worker);
        if (!started) {
          reject(new Error(`a worker process exited during startup (${signal ?? `code ${code}`})`));
          return;
        }
        if (stopping) return;
        options.write(
          `arclight store: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a replacement\n`,
        );
        fork().catch((error: Error) =>
          options.write(`arclight store: replacement worker failed: ${error.message}\n`),
        );
      });
    });

  const stopAll = async (): Promise<void> => {
    stopping = true;
    const exits = [...workers].map(
      (worker) =>
        new Promise<void>((resolveExit) => {
          if (worker.isDead()) return resolveExit();
          worker.once('exit', () => resolveExit());
          worker.process.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
  };

  let url: string;
  try {
    const urls = await Promise.all(Array.from({ length: options.workers }, fork));
    url = urls[0]!;
  } catch (error) {
    await stopAll();
    return options.fail((error as Error).message);
  }
  options.write(
    `Arclight LightningStore listening on ${url} (${options.description}, ${options.workers} worker processes)\n`,
  );

  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  const force = () => {
    for (const worker of workers) worker.process.kill('SIGKILL');
    process.exit(1);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  process.stderr.write(`arclight store: ${signal} received, stopping ${workers.size} workers...\n`);
  await stopAll();
  process.removeListener('SIGINT', force);
  process.removeListener('SIGTERM', force);
  process.stderr.write('arclight store: stopped\n');
  return 0;
}
