// Throughput of the adapters: spans → triplets (TraceToTriplet), + LightningRL credit assignment, and spans →
// conversations (TraceToMessages). Rollouts of 10 spans are generated in memory in batches (generation is
// not timed) and adapted rollout by rollout, as a trainer reading a store would. Outputs = triplets or
// conversations (4 per rollout).
// Usage: npm run bench [-- --rollouts 100000 --batch 5000]
import { parseArgs } from 'node:util';
import { lightningRL, TraceToMessages, TraceToTriplet } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    rollouts: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '5000' },
  },
});
const ROLLOUTS = Number(values.rollouts);
const BATCH = Number(values.batch);
const T0 = 1750000000;
const ids = (n, seed) => Array.from({ length: n }, (_, i) => (i * 7919 + seed) % 150000);
const PROMPT_IDS = [ids(256, 1), ids(320, 2), ids(384, 3), ids(448, 4)];
const RESPONSE_IDS = ids(48, 5);

function span(r, i, id, parent, name, start, end, attributes) {
  return {
    rollout_id: `ro-${r}`,
    attempt_id: `at-${r}`,
    sequence_id: i,
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: id,
    parent_id: parent,
    name,
    status: { status_code: 'OK', description: null },
    attributes,
    events: [],
    links: [],
    start_time: T0 + start,
    end_time: T0 + end,
    context: null,
    parent: null,
    resource: { attributes: {}, schema_url: '' },
  };
}

function chat(r, turn) {
  const attrs = {
    'gen_ai.request.type': 'chat',
    'gen_ai.system': 'OpenAI',
    'gen_ai.request.model': 'bench-model',
    'gen_ai.request.streaming': false,
  };
  for (let m = 0; m <= turn * 2; m++) {
    attrs[`gen_ai.prompt.${m}.role`] = m === 0 ? 'system' : m % 2 ? 'user' : 'assistant';
    attrs[`gen_ai.prompt.${m}.content`] = `message ${m} of rollout ${r}`;
  }
  attrs['gen_ai.response.id'] = `chatcmpl-${r}-${turn}`;
  attrs['gen_ai.response.model'] = 'bench-model';
  attrs['gen_ai.usage.prompt_tokens'] = PROMPT_IDS[turn].length;
  attrs['gen_ai.completion.0.finish_reason'] = 'stop';
  attrs['gen_ai.completion.0.role'] = 'assistant';
  attrs['gen_ai.completion.0.content'] = `answer ${turn}`;
  attrs.prompt_token_ids = PROMPT_IDS[turn];
  attrs.response_token_ids = RESPONSE_IDS;
  return attrs;
}

/** 10 spans: session, agent, 4 LLM calls, 2 tool calls, an intermediate and a final reward. */
function rollout(r) {
  const reward = (v) => ({
    'agentlightning.reward.0.name': 'primary',
    'agentlightning.reward.0.value': v,
  });
  const s = `${r}`.padStart(12, '0');
  return [
    span(r, 1, `t${s}1`, `a${s}`, 'tool_call.search', 1.5, 1.6, {
      'tool.name': 'search',
      'tool.call.id': 'c1',
    }),
    span(r, 2, `c${s}0`, `a${s}`, 'openai.chat.completion', 1, 2, chat(r, 0)),
    span(r, 3, `c${s}1`, `a${s}`, 'openai.chat.completion', 3, 4, chat(r, 1)),
    span(r, 4, `t${s}2`, `a${s}`, 'tool_call.fetch', 4.5, 4.6, {
      'tool.name': 'fetch',
      'tool.call.id': 'c2',
    }),
    span(r, 5, `r${s}1`, `a${s}`, 'agentlightning.annotation', 4.7, 4.7, reward(0.1)),
    span(r, 6, `c${s}2`, `a${s}`, 'openai.chat.completion', 5, 6, chat(r, 2)),
    span(r, 7, `c${s}3`, `a${s}`, 'openai.chat.completion', 7, 8, chat(r, 3)),
    span(r, 8, `a${s}`, `s${s}`, 'agent.run', 0.5, 9, { 'agent.name': 'solver' }),
    span(r, 9, `r${s}2`, `s${s}`, 'agentlightning.annotation', 9.5, 9.5, reward(r % 2)),
    span(r, 10, `s${s}`, null, 'rollout.session', 0, 10, { 'agentops.span.kind': 'session' }),
  ];
}

function measure(label, work) {
  let spans = 0;
  let outputs = 0;
  let millis = 0;
  let cpuMicros = 0;
  for (let first = 0; first < ROLLOUTS; first += BATCH) {
    const batch = [];
    for (let r = first; r < Math.min(first + BATCH, ROLLOUTS); r++) batch.push(rollout(r));
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (const spansOfRollout of batch) outputs += work(spansOfRollout);
    const used = process.cpuUsage(cpu);
    millis += performance.now() - started;
    cpuMicros += used.user + used.system;
    for (const spansOfRollout of batch) spans += spansOfRollout.length;
  }
  const seconds = millis / 1000;
  const cpuSeconds = cpuMicros / 1e6;
  const rate = (n, s) => Math.round(n / s).toLocaleString('en');
  console.log(
    `| ${label} | ${spans.toLocaleString('en')} | ${outputs.toLocaleString('en')} | ${seconds.toFixed(2)} | ` +
      `${cpuSeconds.toFixed(2)} | ${rate(spans, cpuSeconds)} | ${rate(outputs, cpuSeconds)} | ${rate(spans, seconds)} |`,
  );
}

const triplets = new TraceToTriplet();
const messages = new TraceToMessages();
console.log(
  `node ${process.version}, ${ROLLOUTS.toLocaleString('en')} rollouts × 10 spans, batches of ${BATCH}`,
);
// CPU time (process.cpuUsage, includes GC) is the figure to read on a shared machine; wall time is also shown.
console.log(
  '| adapter | spans | outputs | wall s | CPU s | spans/CPU-s | outputs/CPU-s | spans/wall-s |',
);
console.log('|---|---|---|---|---|---|---|---|');
measure('TraceToTriplet.adapt (warm-up)', (spans) => triplets.adapt(spans).length);
measure('TraceToTriplet.adapt', (spans) => triplets.adapt(spans).length);
measure('TraceToTriplet.adapt + lightningRL', (spans) => lightningRL(triplets.adapt(spans)).length);
measure(
  'TraceToTriplet first_sibling',
  (spans) => new TraceToTriplet({ rewardMatch: 'first_sibling' }).adapt(spans).length,
);
measure('TraceToMessages.adapt', (spans) => messages.adapt(spans).length);
