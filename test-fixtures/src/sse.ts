// Server-sent events writer used by the streaming routes.
import type { ServerResponse } from 'node:http';

export class SseWriter {
  constructor(
    private readonly res: ServerResponse,
    private readonly chunkDelayMs = 0,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
  }

  /** False once the client has gone away. */
  get open(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  /** Writes `data: <json>` (with an `event:` line when given). */
  async send(data: unknown, event?: string): Promise<void> {
    if (!this.open) return;
    if (this.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, this.chunkDelayMs));
    this.res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Writes `data: [DONE]` and ends the response. */
  done(): void {
    if (this.open) this.res.end('data: [DONE]\n\n');
  }

  end(): void {
    if (this.open) this.res.end();
  }
}
