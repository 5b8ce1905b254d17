import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { SKIP_PYTHON } from '@arclight/test-fixtures/python';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordArclightTraces } from '../support/arclight-traces.js';
import { loadGoldens } from '../support/goldens.js';
import { type CaseOutcome, comparable, type GoldenCase, runOurs } from '../support/outcome.js';
import { runUpstream, type UpstreamAnswer } from '../support/python.js';

/**
 * Cross-check with upstream agentlightning 0.3.0 (the repo's venv, `scripts/python-env.sh`): the hand-built
 * golden traces, traces recorded by Arclight's own instrumentation, and traces recorded by upstream's
 * AgentOpsTracer all go through upstream's `TracerTraceToTriplet` (several option sets each) and
 * `TraceToMessages`, and through ours; the JSON must be identical (or both must fail).
 * Normalisation: both sides are compared as JSON text after a JSON round trip in JavaScript — numbers
 * lose Python's int/float distinction (`1.0` ≡ `1`), objects list integer-like keys first.
 */
const goldens = loadGoldens();

describe.skipIf(SKIP_PYTHON)('adapters agree with upstream agentlightning 0.3.0', () => {
  let llm: FixtureLlm;
  let arclight: GoldenCase[];
  let upstream: UpstreamAnswer;

  // A setup failure (no venv, Python error) fails every test below, so reports count them as failed.
  let setupError: unknown;
  beforeAll(async () => {
    try {
      llm = await startFixtureLlm({ recordings: false });
      arclight = await recordArclightTraces(llm.baseUrl);
      upstream = await runUpstream([...goldens, ...arclight], llm.baseUrl);
    } catch (error) {
      setupError = error;
    }
  }, 180_000);
  const ready = () => {
    if (setupError) throw setupError;
  };

  afterAll(async () => {
    await llm?.close();
  });

  const expectSame = (golden: GoldenCase) => {
    ready();
    const theirs: CaseOutcome | undefined = upstream.results[golden.name];
    expect(theirs, `upstream ran ${golden.name}`).toBeDefined();
    const ours = runOurs(golden);
    golden.triplet.forEach((kwargs, i) => {
      expect(
        comparable(ours.triplet[i]!),
        `${golden.name} triplets ${JSON.stringify(kwargs)}`,
      ).toBe(comparable(theirs!.triplet[i]!));
    });
    expect(comparable(ours.messages), `${golden.name} messages`).toBe(comparable(theirs!.messages));
  };

  it.each(goldens.map((g) => [g.name, g] as const))('golden %s', (_name, golden) => {
    expectSame(golden);
  });

  it('golden traces cover the edge cases and produce data', () => {
    ready();
    expect(goldens.length).toBeGreaterThanOrEqual(25);
    const withTriplets = goldens.filter((g) => {
      const first = upstream.results[g.name]!.triplet[0]!;
      return 'ok' in first && Array.isArray(first.ok) && first.ok.length > 0;
    });
    expect(withTriplets.length).toBeGreaterThanOrEqual(18);
  });

  it('traces recorded by Arclight instrumentation (@arclight/instrumentation-openai + @arclight/otel)', () => {
    ready();
    expect(arclight.map((c) => c.name)).toEqual([
      'arclight:tools-stream',
      'arclight:judge-and-apis',
    ]);
    for (const golden of arclight) expectSame(golden);
    const tools = runOurs(arclight[0]!).triplet[0]!;
    expect('ok' in tools && (tools.ok as { reward: number | null }[]).map((t) => t.reward)).toEqual(
      [0.25, 1],
    );
  });

  it('traces recorded by upstream AgentOpsTracer (real openai Python SDK against the fixture LLM)', () => {
    ready();
    expect(upstream.recorded.map((c) => c.name)).toEqual([
      'python-agentops:chat',
      'python-agentops:tools',
    ]);
    for (const golden of upstream.recorded) expectSame(golden);
    const chat = runOurs(upstream.recorded[0]!).triplet[0]!;
    expect('ok' in chat && (chat.ok as { reward: number | null }[]).map((t) => t.reward)).toEqual([
      0.25, 1,
    ]);
  });
});
