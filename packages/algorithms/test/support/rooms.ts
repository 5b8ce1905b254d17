import { LLM, PromptTemplate } from '@arclight/core';
import { instrumentOpenAI, type Uninstrument } from '@arclight/instrumentation-openai';
import { emitReward, LightningTracer } from '@arclight/otel';
import { rollout } from '@arclight/runner';
import type { LightningStore } from '@arclight/store';
import {
  chooseRoom,
  type FixtureLlm,
  parseFinalChoice,
  ROOM_RULES,
  ROOM_TOOL_NAME,
  type RoomInfo,
  type RoomRequest,
  roomSelectorResponders,
  startFixtureLlm,
} from '@arclight/test-fixtures';
import OpenAI from 'openai';

/** A small room-selection world for APO tests, answered by the fixture's simulated room-selector model. */
export const TEST_ROOMS: RoomInfo[] = [
  {
    id: 'Ant',
    capacity: 4,
    equipment: ['tv'],
    accessible: true,
    distance_m: 5,
    booked: [['2025-10-13', '10:00', 60]],
  },
  {
    id: 'Bee',
    capacity: 6,
    equipment: ['projector', 'whiteboard'],
    accessible: false,
    distance_m: 12,
    booked: [],
  },
  {
    id: 'Cod',
    capacity: 8,
    equipment: ['projector', 'confphone'],
    accessible: true,
    distance_m: 20,
    booked: [['2025-10-13', '14:00', 60]],
  },
  {
    id: 'Doe',
    capacity: 12,
    equipment: ['tv', 'projector', 'whiteboard'],
    accessible: true,
    distance_m: 30,
    booked: [],
  },
];

export interface RoomTask {
  request: RoomRequest;
  expected: string;
}

const ALL_RULES = new Set(ROOM_RULES.map((r) => r.id));

/** `n` deterministic tasks whose expected answer is the oracle's (every rule applied). */
export function roomTasks(n: number): RoomTask[] {
  const times = ['09:00', '10:30', '14:00', '16:00'];
  const sizes = [3, 5, 7, 10, 14];
  const needs = [[], ['projector'], ['tv'], ['whiteboard'], ['projector', 'confphone']];
  const tasks: RoomTask[] = [];
  for (let i = 0; tasks.length < n; i++) {
    const request: RoomRequest = {
      date: '2025-10-13',
      time: times[i % times.length]!,
      duration_min: 30 + 30 * (i % 2),
      attendees: sizes[(i * 3) % sizes.length]!,
      needs: needs[(i * 7) % needs.length]!,
      accessible_required: i % 3 === 0,
    };
    tasks.push({ request, expected: chooseRoom(TEST_ROOMS, request, ALL_RULES) });
  }
  return tasks;
}

export const SEED_TEMPLATE =
  'Find a room on {date} at {time} for {duration_min} minutes, {attendees} attendees. ' +
  'Needs: {needs}. Accessible required: {accessible}';

const TOOL = {
  type: 'function' as const,
  function: {
    name: ROOM_TOOL_NAME,
    description: 'Rooms with capacity, equipment, accessibility, distance and bookings.',
    parameters: { type: 'object', properties: { date: { type: 'string' } } },
  },
};

/** The test agent: prompt → tool call → rooms → answer; reward 1 for the oracle's room. */
export const roomAgent = rollout<RoomTask>(async (task, { llm, promptTemplate }) => {
  const client = new OpenAI({ baseURL: llm.endpoint, apiKey: 'unused', maxRetries: 0 });
  const { request } = task;
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a scheduling assistant.' },
    {
      role: 'user',
      content: promptTemplate.format({
        ...request,
        needs: request.needs.join(', ') || 'none',
        accessible: request.accessible_required ? 'yes' : 'no',
      }),
    },
  ];
  const first = await client.chat.completions.create({ model: llm.model, messages, tools: [TOOL] });
  const message = first.choices[0]!.message;
  const call = message.tool_calls?.[0];
  let answer = message.content ?? '';
  if (call) {
    messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: JSON.stringify({ rooms: TEST_ROOMS }),
    });
    const second = await client.chat.completions.create({ model: llm.model, messages });
    answer = second.choices[0]!.message.content ?? '';
  }
  emitReward(parseFinalChoice(answer) === task.expected ? 1 : 0);
});

/** The fixture server with the simulated model, critic and editor, plus the resources and tracer of a run. */
export async function roomWorld(): Promise<{
  llm: FixtureLlm;
  resources: { prompt: PromptTemplate; main_llm: LLM };
  tracer: (store: LightningStore) => LightningTracer;
  close(): Promise<void>;
}> {
  const llm = await startFixtureLlm({ recordings: false, responders: roomSelectorResponders() });
  let uninstrument: Uninstrument | undefined;
  return {
    llm,
    resources: {
      prompt: new PromptTemplate({ template: SEED_TEMPLATE, engine: 'f-string' }),
      main_llm: new LLM({ endpoint: llm.baseUrl, model: 'simulated-room-selector' }),
    },
    tracer: (store) => {
      const tracer = new LightningTracer({ store });
      uninstrument?.();
      uninstrument = instrumentOpenAI(OpenAI, { tracerProvider: tracer.tracerProvider });
      return tracer;
    },
    close: async () => {
      uninstrument?.();
      await llm.close();
    },
  };
}
