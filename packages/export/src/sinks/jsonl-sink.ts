import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { OutputFile } from './output-file.js';
import type { RowSink } from './sink.js';

/** Lines are encoded into chunks of this many bytes before they go to the stream. */
const CHUNK_BYTES = 1 << 20;

/**
 * JSON Lines: one `JSON.stringify(row)` per line. Lines are UTF-8-encoded straight into ~1 MiB chunks (one
 * stream write per chunk, not per row: a stream write costs about as much as stringifying a small row; no
 * joined string in between) and written with backpressure; memory holds one chunk plus the stream's buffer.
 */
export class JsonlSink<Row> implements RowSink<Row> {
  private readonly file: OutputFile;
  private readonly stream: WriteStream;
  private error: Error | null = null;
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  constructor(out: string) {
    this.file = new OutputFile(out);
    this.stream = createWriteStream(this.file.partialPath);
    this.stream.on('error', (error) => {
      this.error = error;
    });
  }

  async write(row: Row): Promise<void> {
    if (this.error) throw this.error;
    const line = JSON.stringify(row);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8; a line that may not fit goes out on its own.
    const room = line.length * 3 + 1;
    if (this.used + room > CHUNK_BYTES) await this.flush();
    if (room > CHUNK_BYTES) {
      await this.send(Buffer.from(`${line}\n`, 'utf8'));
      return;
    }
    this.used += this.chunk.write(line, this.used, 'utf8');
    this.chunk[this.used++] = 0x0a;
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const full = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    await this.send(full);
  }

  private async send(bytes: Buffer): Promise<void> {
    if (!this.stream.write(bytes)) {
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
