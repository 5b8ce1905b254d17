import { ValidationError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { buildTraceTree, repairHierarchy, TraceTree, VIRTUAL_ROOT_ID } from '../src/index.js';
import { makeSpans } from './support/build-spans.js';

describe('buildTraceTree', () => {
  it('nests spans under their parents in input order', () => {
    const tree = TraceTree.fromSpans(
      makeSpans([
        { id: 'b', parent: 'root', name: 'B' },
        { id: 'root', name: 'R' },
        { id: 'a', parent: 'root', name: 'A' },
        { id: 'c', parent: 'a', name: 'C' },
      ]),
    );
    expect(tree.namesTuple()).toEqual([
      'R',
      [
        ['B', []],
        ['A', [['C', []]]],
      ],
    ]);
    expect(tree.traverse().map((n) => n.id)).toEqual(['root', 'b', 'a', 'c']);
    expect(tree.findId('c')?.span.name).toBe('C');
  });

  it('stands a virtual span in for a missing parent, spanning its children', () => {
    const tree = buildTraceTree(
      makeSpans([
        { id: 'x', parent: 'lost', start: 5, end: 6 },
        { id: 'y', parent: 'lost', start: 2, end: 9 },
      ]),
    );
    expect(tree.id).toBe('lost');
    expect(tree.span.name).toBe('agentlightning.virtual');
    expect([tree.startTime, tree.endTime]).toEqual([2, 9]);
    expect(tree.children.map((c) => c.id)).toEqual(['x', 'y']);
  });

  it('adds a virtual root over several roots: real roots first, then missing parents by first reference', () => {
    const tree = buildTraceTree(
      makeSpans([
        { id: 'p', parent: 'lost-2', start: 1, end: 2 },
        { id: 'r1', start: 0, end: 3 },
        { id: 'q', parent: 'lost-1', start: 4, end: 5 },
        { id: 'r2', start: 6, end: 8 },
      ]),
    );
    expect(tree.id).toBe(VIRTUAL_ROOT_ID);
    expect(tree.span.name).toBe('virtual-root');
    expect(tree.children.map((c) => c.id)).toEqual(['r1', 'r2', 'lost-2', 'lost-1']);
    // upstream: first root's start, last root's end
    expect([tree.startTime, tree.endTime]).toEqual([0, 5]);
  });

  it('rejects empty input, cycles and untimed missing parents', () => {
    expect(() => buildTraceTree([])).toThrow(ValidationError);
    expect(() =>
      buildTraceTree(
        makeSpans([
          { id: 'a', parent: 'b' },
          { id: 'b', parent: 'a' },
        ]),
      ),
    ).toThrow(/no root span/);
    const dup = makeSpans([{ id: 'r' }, { id: 'a', parent: 'r' }, { id: 'r', parent: 'a' }]);
    expect(() => buildTraceTree(dup)).toThrow(/cycle/);
    expect(() =>
      buildTraceTree(makeSpans([{ id: 'x', parent: 'lost', start: null, end: null }])),
    ).toThrow(/missing parent 'lost'/);
  });
});

describe('repairHierarchy', () => {
  it('moves top-level spans under the tightest enclosing span; ties go to the first in depth-first order', () => {
    const tree = buildTraceTree(
      makeSpans([
        { id: 'agent-1', start: 0, end: 10 },
        { id: 'agent-2', start: 0, end: 10 },
        { id: 'call', start: 1, end: 2 },
        { id: 'inner', start: 0.5, end: 3 },
        { id: 'late', start: 11, end: 12 },
      ]),
    );
    repairHierarchy(tree);
    const shape = (node: TraceTree): unknown => [node.id, node.children.map(shape)];
    expect(shape(tree)).toEqual([
      'virtual-root',
      [
        ['agent-1', [['inner', [['call', []]]]]],
        ['agent-2', []],
        ['late', []],
      ],
    ]);
  });

  it('follows single-child chains first and leaves lone children alone', () => {
    const tree = buildTraceTree(
      makeSpans([
        { id: 'session', start: 0, end: 20 },
        { id: 'run', parent: 'session', start: 0, end: 20 },
        { id: 'agent', parent: 'run', start: 1, end: 10 },
        { id: 'call', parent: 'run', start: 2, end: 3 },
      ]),
    );
    tree.repairHierarchy();
    expect(tree.traverse().map((n) => n.id)).toEqual(['session', 'run', 'agent', 'call']);
    expect(tree.findId('agent')!.children.map((c) => c.id)).toEqual(['call']);
  });

  it('never moves a span under its own descendant (a parent that ended before its children)', () => {
    // A trace root closed 1 ms after it started, its agent running on; a top-level LLM call inside the agent.
    const tree = buildTraceTree(
      makeSpans([
        { id: 'trace', start: 0, end: 1 },
        { id: 'agent', parent: 'trace', start: 0, end: 47 },
        { id: 'call', start: 6, end: 39 },
      ]),
    );
    repairHierarchy(tree);
    const shape = (node: TraceTree): unknown => [node.id, node.children.map(shape)];
    expect(shape(tree)).toEqual(['virtual-root', [['trace', [['agent', [['call', []]]]]]]]);
  });

  it('fails like upstream when a time it must compare is missing', () => {
    const tree = buildTraceTree(
      makeSpans([
        { id: 'a', start: null, end: null },
        { id: 'b', start: 1, end: 2 },
      ]),
    );
    expect(() => repairHierarchy(tree)).toThrow(ValidationError);
  });
});
