import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { OutputFile } from './output-file.js';
import type { RowSink } from './sink.js';

/** JSON Lines: one `JSON.stringify(row)` per line, written through a stream with backpressure. */
export class JsonlSink<Row> implements RowSink<Row> {
  private readonly file: OutputFile;
  private readonly stream: WriteStream;
  private error: Error | null = null;

  constructor(out: string) {
    this.file = new OutputFile(out);
    this.stream = createWriteStream(this.file.partialPath, { encoding: 'utf8' });
    this.stream.on('error', (error) => {
      this.error = error;
    });
  }

  async write(row: Row): Promise<void> {
    if (this.error) throw this.error;
    if (!this.stream.write(`${JSON.stringify(row)}\n`)) {
      await this.drained();
      if (this.error) throw this.error;
    }
  }

  /** Resolves on 'drain', or on 'close' (a failed stream is destroyed and closes). */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }

  async close(): Promise<void> {
    if (this.error) throw this.error;
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.error) throw this.error;
    this.file.commit();
  }

  async abort(): Promise<void> {
    if (!this.stream.destroyed) {
      const closed = once(this.stream, 'close').catch(() => undefined);
      this.stream.destroy();
      await closed;
    }
    this.file.discard();
  }
}
