/**
 * What the readers look at: a name and attributes. Arclight `Span`s, OpenTelemetry `ReadableSpan`s and
 * `SpanCoreFields` all qualify.
 */
export interface SpanLike {
  name: string;
  attributes?: Readonly<Record<string, unknown>> | null;
}
