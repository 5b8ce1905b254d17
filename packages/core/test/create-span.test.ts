import { describe, expect, it } from 'vitest';
import {
  AGL_ANNOTATION,
  AGL_VIRTUAL,
  createSpan,
  isSpanId,
  isTraceId,
  parseSpan,
  spanFromCoreFields,
} from '../src/index.js';

describe('createSpan (upstream Span.from_attributes)', () => {
  it('generates ids and fills defaults', () => {
    const before = Date.now() / 1000;
    const span = createSpan({ attributes: { 'agentlightning.tag': 'x' } });
    const after = Date.now() / 1000;
    expect(isTraceId(span.trace_id)).toBe(true);
    expect(isSpanId(span.span_id)).toBe(true);
    expect(span).toMatchObject({
      rollout_id: '',
      attempt_id: '',
      sequence_id: 0,
      parent_id: null,
      name: AGL_VIRTUAL,
      status: { status_code: 'OK', description: null },
      attributes: { 'agentlightning.tag': 'x' },
      events: [],
      links: [],
      context: {
        trace_id: span.trace_id,
        span_id: span.span_id,
        is_remote: false,
        trace_state: {},
      },
      parent: null,
      resource: { attributes: {}, schema_url: '' },
    });
    expect(span.start_time).toBeGreaterThanOrEqual(before);
    expect(span.start_time).toBeLessThanOrEqual(after);
    expect(span.end_time).toBe(span.start_time);
    expect(createSpan({ attributes: {} }).span_id).not.toBe(span.span_id);
  });

  it('uses given fields, builds a parent context and keeps explicit null times', () => {
    const span = createSpan({
      attributes: { a: 1 },
      rollout_id: 'ro-1',
      attempt_id: 'at-1',
      sequence_id: 4,
      name: AGL_ANNOTATION,
      trace_id: 'f'.repeat(32),
      span_id: 'e'.repeat(16),
      parent_id: 'd'.repeat(16),
      start_time: 10,
      end_time: null,
      status: { status_code: 'ERROR', description: 'x' },
      resource: { attributes: { 'service.name': 's' }, schema_url: 'u' },
    });
    expect(span.parent).toEqual({
      trace_id: 'f'.repeat(32),
      span_id: 'd'.repeat(16),
      is_remote: false,
      trace_state: {},
    });
    expect(span).toMatchObject({
      rollout_id: 'ro-1',
      sequence_id: 4,
      name: AGL_ANNOTATION,
      start_time: 10,
      end_time: null,
    });
    expect(span.status).toEqual({ status_code: 'ERROR', description: 'x' });
    expect(parseSpan(JSON.parse(JSON.stringify(span)))).toEqual(span);
  });

  it('does not share the caller attribute object', () => {
    const attributes = { a: 1 };
    createSpan({ attributes }).attributes.b = 2;
    expect(attributes).toEqual({ a: 1 });
  });
});

describe('spanFromCoreFields (upstream Span.from_core_fields)', () => {
  it('copies the core fields and attributes the span', () => {
    const span = spanFromCoreFields(
      {
        name: 'agentlightning.message',
        status: { status_code: 'OK', description: null },
        attributes: { m: 'hi' },
        start_time: 5,
        end_time: 6,
      },
      { rollout_id: 'ro-1', attempt_id: 'at-1', sequence_id: 2 },
    );
    expect(span).toMatchObject({
      rollout_id: 'ro-1',
      attempt_id: 'at-1',
      sequence_id: 2,
      name: 'agentlightning.message',
      attributes: { m: 'hi' },
      start_time: 5,
      end_time: 6,
    });
  });

  it('defaults a missing start time to now and keeps a missing end time', () => {
    const before = Date.now() / 1000;
    const span = spanFromCoreFields({
      name: 'n',
      status: { status_code: 'UNSET', description: null },
      attributes: {},
      start_time: null,
      end_time: null,
    });
    expect(span.start_time).toBeGreaterThanOrEqual(before);
    expect(span.end_time).toBeNull();
    expect(span.rollout_id).toBe('');
  });
});
