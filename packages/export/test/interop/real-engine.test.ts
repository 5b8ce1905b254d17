// Export fidelity on real sampled tokens: a real model (SmolLM2-135M-Instruct on node-llama-cpp, served by the
// real-engine server), traced by the openai instrumentation into a store, exported. The ids in the spans and in the
// exported rows are the ids the engine served; multi-turn rows merge exactly where the engine's prompts extend the
// previous turn token for token, and every other turn is reported as a prefix break with its position and class.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instrumentOpenAI, type Uninstrument } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import { type RealEngine, startRealEngine } from '@arclight/test-fixtures/real-engine';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFromStore, type TripletLine } from '../../src/index.js';
import { tempDir } from '../support/run.js';

let engine: RealEngine;
let store: InMemoryLightningStore;
let tracer: LightningTracer;
let uninstrument: Uninstrument;
let client: OpenAI;

beforeAll(async () => {
  engine = await startRealEngine();
  store = new InMemoryLightningStore();
  tracer = new LightningTracer({ store });
  uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: true,
    requestLogprobs: true,
  });
  client = new OpenAI({
    baseURL: engine.baseUrl,
    apiKey: 'real-engine',
    maxRetries: 0,
    timeout: 600_000,
  });
}, 600_000);

afterAll(async () => {
  uninstrument?.();
  await tracer?.shutdown();
  await store?.close();
  await engine?.close();
});

type Served = { prompt: number[]; response: number[] };
type Message = OpenAI.Chat.ChatCompletionMessageParam;
const MODEL = 'SmolLM2-135M-Instruct';

/** One chat call; returns the engine's own ids from the raw answer (vLLM's extra fields). */
async function call(
  messages: Message[],
  extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming> = {},
): Promise<{ message: OpenAI.Chat.ChatCompletionMessage; finish: string; served: Served }> {
  const completion = await client.chat.completions.create({
    model: MODEL,
    messages,
    temperature: 0,
    max_tokens: 24,
    ...extra,
  });
  const raw = completion as unknown as {
    prompt_token_ids: number[];
    choices: { token_ids: number[] }[];
  };
  return {
    message: completion.choices[0]!.message,
    finish: completion.choices[0]!.finish_reason,
    served: { prompt: raw.prompt_token_ids, response: raw.choices[0]!.token_ids },
  };
}

/** Runs `fn` as one finished rollout and returns its id. */
async function rollout(fn: () => Promise<void>): Promise<string> {
  const started = await store.startRollout({ input: { test: 'real-engine' }, mode: 'train' });
  await tracer.traceContext(
    { rolloutId: started.rollout_id, attemptId: started.attempt.attempt_id },
    fn,
  );
  await tracer.flush();
  await store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
    status: 'succeeded',
  });
  return started.rollout_id;
}

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const startsWith = (whole: number[], prefix: number[]) =>
  prefix.length <= whole.length && prefix.every((id, i) => whole[i] === id);

describe('exports on a real model (SmolLM2-135M-Instruct)', () => {
  it('records and exports the ids the engine served; turns merge exactly where the prompts extend token for token', async () => {
    const served: Served[] = [];
    const id = await rollout(async () => {
      const messages: Message[] = [{ role: 'user', content: 'Name a colour.' }];
      for (const next of ['Another one?', 'And a third?']) {
        const turn = await call(messages);
        served.push(turn.served);
        messages.push(
          { role: 'assistant', content: turn.message.content ?? '' },
          { role: 'user', content: next },
        );
      }
      served.push((await call(messages)).served);
    });

    const dir = tempDir();
    const triplets = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 't.jsonl'),
    });
    const lines = readJsonl<TripletLine>(triplets.out).filter((l) => l.rollout_id === id);
    expect(
      lines.map((l) => ({ prompt: l.prompt.token_ids, response: l.response.token_ids })),
    ).toEqual(served);
    // One logprob per sampled id, recorded from the engine.
    for (const line of lines)
      expect(line.response.logprobs).toHaveLength(line.response.token_ids.length);

    // Which consecutive turns extend the previous one token for token (the TITO invariant), as served.
    const extends_ = served
      .slice(1)
      .map((turn, i) => startsWith(turn.prompt, [...served[i]!.prompt, ...served[i]!.response]));
    const tokens = await exportFromStore(store, {
      format: 'trl-sft-tokens',
      out: join(dir, 'tokens.jsonl'),
    });
    const merge = tokens.merge!;
    expect(merge.calls).toBe(3);
    expect(merge.merged_calls).toBe(extends_.filter(Boolean).length);
    expect(merge.prefix_breaks).toBe(extends_.filter((e) => !e).length);
    expect(merge.rows).toBe(3 - merge.merged_calls);
    // The history was sent back unchanged, so any break is the reply's text re-tokenizing differently.
    for (const b of merge.first_breaks) expect(b.reason).toBe('token_drift');
    // The merged rows hold exactly the served ids, observation (prompt) tokens masked.
    const rows = readJsonl<{ input_ids: number[]; assistant_masks: number[] }>(tokens.out);
    const first = rows[0]!;
    expect(first.input_ids.slice(0, served[0]!.prompt.length)).toEqual(served[0]!.prompt);
    expect(first.assistant_masks.slice(0, served[0]!.prompt.length).every((m) => m === 0)).toBe(
      true,
    );
    expect(
      first.assistant_masks.slice(
        served[0]!.prompt.length,
        served[0]!.prompt.length + served[0]!.response.length,
      ),
    ).toEqual(served[0]!.response.map(() => 1));
  }, 900_000);

  it('reports the break where a structured tool call is rendered back differently from how it was sampled', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      },
    ];
    const served: Served[] = [];
    const id = await rollout(async () => {
      const messages: Message[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
      const first = await call(messages, { tools, tool_choice: 'required', max_tokens: 32 });
      served.push(first.served);
      expect(first.message.tool_calls?.length).toBe(1);
      const toolCall = first.message.tool_calls![0]!;
      // The agent sends the call back structured (content null), as OpenAI-style agents do.
      messages.push(
        { role: 'assistant', content: null, tool_calls: first.message.tool_calls! },
        { role: 'tool', tool_call_id: toolCall.id, content: 'sunny, 21 C' },
      );
      served.push((await call(messages, { tools, max_tokens: 8 })).served);
    });
    const summary = await exportFromStore(store, {
      format: 'trl-sft-tokens',
      out: join(tempDir(), 'tools.jsonl'),
      since: 0,
    });
    const breaks = summary.merge!.first_breaks.filter((b) => b.rollout_id === id);
    // The forced call was sampled as `<tool_call>{"name": "get_weather", "arguments": {"city": "…"}}` (spaces) and
    // comes back rendered from the structured call as compact JSON: the prompt stops extending the first turn inside
    // the reply — past the first prompt — and the report says where.
    const turn = [...served[0]!.prompt, ...served[0]!.response];
    expect(startsWith(served[1]!.prompt, turn)).toBe(false);
    expect(breaks).toHaveLength(1);
    expect(breaks[0]!.position).toBeGreaterThan(served[0]!.prompt.length);
    expect(breaks[0]!.position).toBeLessThan(turn.length);
    expect(served[1]!.prompt.slice(0, breaks[0]!.position)).toEqual(
      turn.slice(0, breaks[0]!.position),
    );
  }, 900_000);

  it('records the same ids for the same call streamed and not streamed', async () => {
    const messages: Message[] = [{ role: 'user', content: 'Say hello.' }];
    let plain: Served | undefined;
    const plainId = await rollout(async () => {
      plain = (await call(messages)).served;
    });
    const streamedId = await rollout(async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages,
        temperature: 0,
        max_tokens: 24,
        stream: true,
      });
      for await (const _ of stream) {
        // consumed: the instrumentation accumulates the chunks
      }
    });
    const out = join(tempDir(), 'stream.jsonl');
    await exportFromStore(store, { format: 'triplets', out, since: 0 });
    const byRollout = new Map(readJsonl<TripletLine>(out).map((l) => [l.rollout_id, l]));
    const a = byRollout.get(plainId)!;
    const b = byRollout.get(streamedId)!;
    expect(a.prompt.token_ids).toEqual(plain!.prompt);
    expect(a.response.token_ids).toEqual(plain!.response);
    expect(b.prompt.token_ids).toEqual(a.prompt.token_ids);
    expect(b.response.token_ids).toEqual(a.response.token_ids);
  }, 900_000);
});
