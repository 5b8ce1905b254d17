/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Incremental parser of a `text/event-stream` body: feed it the bytes as they arrive, it returns the events
 * completed by them. It never buffers more than the one event still open.
 */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private event: string | undefined;
  private data: string[] = [];

  push(bytes: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    const events: SseEvent[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      this.line(line, events);
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return events;
  }

  /** The event left open when the stream ended without a blank line. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer !== '') this.line(this.buffer, events);
    this.buffer = '';
    this.line('', events);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push({ event: this.event, data: this.data.join('\n') });
      this.event = undefined;
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}

/** The JSON of an event's data, or undefined for `[DONE]` and anything that is not a JSON object. */
export function eventJson(event: SseEvent): Record<string, unknown> | undefined {
  if (event.data === '[DONE]') return undefined;
  try {
    const value: unknown = JSON.parse(event.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
