import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { OutputFile } from './output-file.js';
import type { RowSink } from './sink.js';

/** Lines are joined into chunks of about this many characters before they go to the stream. */
const CHUNK_CHARS = 1 << 16;

/**
 * JSON Lines: one `JSON.stringify(row)` per line. Lines are gathered into ~64 KiB chunks (one stream write per
 * chunk, not per row: a stream write costs about as much as stringifying a small row) and written with
 * backpressure; memory holds one chunk plus the stream's buffer.
 */
export class JsonlSink<Row> implements RowSink<Row> {
  private readonly file: OutputFile;
  private readonly stream: WriteStream;
  private error: Error | null = null;
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(out: string) {
    this.file = new OutputFile(out);
    this.stream = createWriteStream(this.file.partialPath, { encoding: 'utf8' });
    this.stream.on('error', (error) => {
      this.error = error;
    });
  }

  async write(row: Row): Promise<void> {
    if (this.error) throw this.error;
    const line = JSON.stringify(row);
    this.pending.push(line);
    this.pendingChars += line.length + 1;
    if (this.pendingChars >= CHUNK_CHARS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingChars = 0;
    if (!this.stream.write(chunk)) {
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
    await this.flush();
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
