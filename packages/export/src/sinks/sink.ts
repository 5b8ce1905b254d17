/** Where a format's rows go: appended one at a time, flushed incrementally, committed on close. */
export interface RowSink<Row> {
  write(row: Row): Promise<void>;
  /** Flushes everything and moves the file to its final path. */
  close(): Promise<void>;
  /** Deletes the partial output (after an error). */
  abort(): Promise<void>;
}
