import { closeSync, openSync, writevSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { ByteWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { OutputFile } from './output-file.js';
import { ByteBuffer, ColumnBuffer, type ScalarKind } from './parquet-column-buffer.js';
import { type ParquetColumn, schemaElements } from './parquet-schema.js';
import type { RowSink } from './sink.js';

type FileMetaData = Parameters<typeof writeMetadata>[1];
type RowGroup = FileMetaData['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];

export type ParquetCodec = 'ZSTD' | 'SNAPPY';

/**
 * ZSTD (level 1) through node:zlib where Node has it (22.15+, 23.8+): native; on token ids of a real-sized
 * vocabulary about half of Snappy's output for the same CPU (bench/parquet-encoders.mjs).
 * Else hyparquet-writer's Snappy (JavaScript, on the main thread).
 */
export const ZSTD_AVAILABLE = typeof zlib.zstdCompressSync === 'function';
export const DEFAULT_CODEC: ParquetCodec = ZSTD_AVAILABLE ? 'ZSTD' : 'SNAPPY';
const ZSTD_OPTIONS = { params: { [zlib.constants.ZSTD_c_compressionLevel]: 1 } };

function compress(codec: ParquetCodec, body: Uint8Array): Uint8Array {
  return codec === 'ZSTD' ? zlib.zstdCompressSync(body, ZSTD_OPTIONS) : snappyCompress(body);
}

interface CompressedPage {
  body: Uint8Array;
  uncompressedSize: number;
  /** Level entries: the page header's `num_values`. */
  numValues: number;
}
const MAGIC = Buffer.from('PAR1', 'latin1');

export interface ColumnarParquetOptions {
  /** Rows per row group (memory holds one). */
  rowGroupSize: number;
  /** The file's key-value metadata. */
  metadata?: Record<string, string>;
  codec?: ParquetCodec;
  /** PLAIN value bytes per data page before the next page starts, at a row boundary (default 1 MiB). */
  pageBytes?: number;
}

/**
 * Parquet for flat schemas (scalars and lists of scalars, the token formats' columns), encoded here: each row's
 * values go straight into per-column typed arrays; every `rowGroupSize` rows each column is cut into ~1 MiB data
 * pages (v1: RLE levels, PLAIN values, ZSTD or Snappy) and appended to the file. The footer (thrift metadata) is written
 * by hyparquet-writer's serializer on close. Memory: one row group of column buffers, reused.
 */
export class ColumnarParquetSink<Row extends Record<string, unknown>> implements RowSink<Row> {
  private readonly file: OutputFile;
  private readonly fd: number;
  private readonly buffers: ColumnBuffer[];
  private readonly page = new ByteBuffer();
  private readonly rowGroups: RowGroup[] = [];
  private offset = 0;
  private rows = 0;
  private buffered = 0;
  private closed = false;

  private readonly rowGroupSize: number;
  private readonly metadata: Record<string, string>;
  private readonly codec: ParquetCodec;
  private readonly pageBytes: number;

  constructor(
    out: string,
    private readonly columns: readonly ParquetColumn[],
    options: ColumnarParquetOptions,
  ) {
    this.rowGroupSize = options.rowGroupSize;
    this.metadata = options.metadata ?? {};
    this.codec = options.codec ?? DEFAULT_CODEC;
    if (this.codec === 'ZSTD' && !ZSTD_AVAILABLE) {
      throw new Error(
        `Parquet codec ZSTD needs node:zlib's zstd (Node >= 22.15 or 23.8); this is Node ${process.version}: ` +
          'use SNAPPY (the default here)',
      );
    }
    this.pageBytes = options.pageBytes ?? 1 << 20;
    this.buffers = columns.map((column) => {
      if (column.type === 'nested') {
        throw new Error(`parquet column ${column.name}: nested columns need the nested writer`);
      }
      const list = column.type.endsWith('[]');
      const kind = (list ? column.type.slice(0, -2) : column.type) as ScalarKind;
      return new ColumnBuffer(column.name, kind, list, column.nullable);
    });
    this.file = new OutputFile(out);
    this.fd = openSync(this.file.partialPath, 'w');
    this.append([MAGIC]);
  }

  private append(chunks: Uint8Array[]): void {
    let size = 0;
    for (const chunk of chunks) size += chunk.length;
    let written = 0;
    while (written < size) {
      written += writevSync(this.fd, written === 0 ? chunks : remaining(chunks, written));
    }
    this.offset += size;
  }

  async write(row: Row): Promise<void> {
    const buffers = this.buffers;
    for (let i = 0; i < buffers.length; i++) buffers[i]!.add(row[buffers[i]!.name]);
    this.buffered++;
    if (this.buffered >= this.rowGroupSize) this.flushRowGroup();
  }

  /**
   * Cuts the buffered rows into pages, compresses them (on this thread: zlib's async API cost the main thread more
   * in stream set-up, callbacks and output copies than the compression it moved away) and appends the row group.
   */
  private flushRowGroup(): void {
    if (this.buffered === 0) return;
    const rows = this.buffered;
    const pages = this.buffers.map((buffer) => {
      const breaks = buffer.pageBreaks(this.pageBytes);
      const column: CompressedPage[] = [];
      for (let p = 0; p + 1 < breaks.length; p++) {
        const page = buffer.encode(breaks[p]!, breaks[p + 1]!, this.page);
        column.push({
          body: compress(this.codec, page.body),
          uncompressedSize: page.body.length,
          numValues: page.numValues,
        });
      }
      buffer.reset();
      return column;
    });
    this.buffered = 0;
    this.appendRowGroup(rows, pages);
  }

  private appendRowGroup(rows: number, pages: CompressedPage[][]): void {
    const start = this.offset;
    const columns: ColumnChunk[] = [];
    let uncompressedTotal = 0;
    this.buffers.forEach((buffer, c) => {
      const chunkStart = this.offset;
      let uncompressed = 0;
      let numValues = 0;
      for (const page of pages[c]!) {
        const header = new ByteWriter(64);
        writePageHeader(header, {
          type: 'DATA_PAGE',
          uncompressed_page_size: page.uncompressedSize,
          compressed_page_size: page.body.length,
          data_page_header: {
            num_values: page.numValues,
            encoding: 'PLAIN',
            definition_level_encoding: 'RLE',
            repetition_level_encoding: 'RLE',
          },
        });
        const headerBytes = header.getBytes();
        this.append([headerBytes, page.body]);
        uncompressed += headerBytes.length + page.uncompressedSize;
        numValues += page.numValues;
      }
      uncompressedTotal += uncompressed;
      columns.push({
        file_offset: BigInt(chunkStart),
        meta_data: {
          type: physicalType(buffer.kind),
          encodings: buffer.maxDefinition > 0 ? ['PLAIN', 'RLE'] : ['PLAIN'],
          path_in_schema: buffer.list ? [buffer.name, 'list', 'element'] : [buffer.name],
          codec: this.codec,
          num_values: BigInt(numValues),
          total_uncompressed_size: BigInt(uncompressed),
          total_compressed_size: BigInt(this.offset - chunkStart),
          data_page_offset: BigInt(chunkStart),
        },
      });
    });
    this.rowGroups.push({
      columns,
      total_byte_size: BigInt(uncompressedTotal),
      num_rows: BigInt(rows),
      file_offset: BigInt(start),
      total_compressed_size: BigInt(this.offset - start),
    });
    this.rows += rows;
  }

  async close(): Promise<void> {
    this.flushRowGroup();
    const footer = new ByteWriter(4096);
    writeMetadata(footer, {
      version: 1,
      created_by: 'arclight-export',
      schema: schemaElements(this.columns),
      num_rows: BigInt(this.rows),
      row_groups: this.rowGroups,
      metadata_length: 0,
      key_value_metadata: Object.entries(this.metadata).map(([key, value]) => ({ key, value })),
    });
    this.append([footer.getBytes(), MAGIC]);
    this.closeFile();
    this.file.commit();
  }

  private closeFile(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  async abort(): Promise<void> {
    this.closeFile();
    this.file.discard();
  }
}

function physicalType(kind: ScalarKind): 'INT32' | 'DOUBLE' | 'BOOLEAN' | 'BYTE_ARRAY' {
  return kind === 'int32'
    ? 'INT32'
    : kind === 'double'
      ? 'DOUBLE'
      : kind === 'boolean'
        ? 'BOOLEAN'
        : 'BYTE_ARRAY';
}

/** The bytes of `chunks` after the first `skip` (after a short write). */
function remaining(chunks: Uint8Array[], skip: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  let left = skip;
  for (const chunk of chunks) {
    if (left >= chunk.length) left -= chunk.length;
    else {
      rest.push(left > 0 ? chunk.subarray(left) : chunk);
      left = 0;
    }
  }
  return rest;
}
