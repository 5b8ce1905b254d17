/** A one-line progress bar redrawn in place on a TTY (carriage return, no dependency). */
export interface ProgressState {
  done: number;
  total: number;
  rows: number;
  elapsedSeconds: number;
}

const WIDTH = 24;
const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The bar's text, e.g. `exporting [██████░░░░░░] 50% 500/1,000 rollouts · 2,345 rows · 1,234 rows/s`. */
export function renderProgress(state: ProgressState): string {
  const ratio = state.total > 0 ? Math.min(1, state.done / state.total) : 0;
  const filled = Math.round(ratio * WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
  const rate = state.elapsedSeconds > 0 ? state.rows / state.elapsedSeconds : 0;
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  return `exporting [${bar}] ${percent} ${count(state.done)}/${count(state.total)} rollouts · ${count(state.rows)} rows · ${count(rate)} rows/s`;
}

/** Redraws at most every `intervalMs`; `finish` clears the line. Writes nothing unless `stream.isTTY`. */
export class ProgressBar {
  private last = 0;
  private readonly started = Date.now();
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly intervalMs = 100,
  ) {}

  update(done: number, total: number, rows: number): void {
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.last < this.intervalMs && done < total) return;
    this.last = now;
    const elapsedSeconds = (now - this.started) / 1000;
    const line = renderProgress({ done, total, rows, elapsedSeconds });
    const columns = this.stream.columns || 120;
    this.stream.write(`\r${line.slice(0, Math.max(20, columns - 1))}\x1b[K`);
    this.drawn = true;
  }

  finish(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
