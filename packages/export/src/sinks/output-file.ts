import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Outputs are written to `<out>.partial` and renamed over `<out>` only when the export completes, so a failed
 * or interrupted export never leaves a truncated file under the final name.
 */
export class OutputFile {
  readonly path: string;
  readonly partialPath: string;

  constructor(out: string) {
    this.path = resolve(out);
    this.partialPath = `${this.path}.partial`;
    mkdirSync(dirname(this.path), { recursive: true });
  }

  commit(): void {
    renameSync(this.partialPath, this.path);
  }

  discard(): void {
    rmSync(this.partialPath, { force: true });
  }
}
