// Simulated models for the room-selector APO demo (offline): the agent's model, whose answers follow the rules
// its prompt states, and APO's critic and prompt editor. All three are deterministic functions of the request.
//
// Contract with @arclight/algorithms' APO prompts: the critic answers requests whose last user message holds
// `<prompt_template>…</prompt_template>` and `<experiments>…</experiments>` (each run as
// `<experiment … final_reward="…">` + the run's chat messages as JSON); the editor answers requests holding
// `<prompt_template>` and `<critique>…</critique>`.
import { contentText } from '../chat-template.js';
import type { ChatMessage, FixtureReply, FixtureRequest, Responder } from '../types.js';
import {
  chooseRoom,
  diagnose,
  NO_ROOM,
  parseRoomRequest,
  ROOM_RULES,
  type RoomInfo,
  type RoomRuleId,
  roomRule,
  rulesStatedIn,
} from './room-selector-rules.js';

export * from './room-selector-rules.js';

/** The agent's tool (upstream's name). */
export const ROOM_TOOL_NAME = 'get_rooms_and_availability';

const textOf = (messages: readonly ChatMessage[], roles: readonly string[]): string =>
  messages
    .filter((m) => roles.includes(m.role))
    .map((m) => contentText(m.content))
    .join('\n');

/** `{ rooms: [...] }` from a tool result, or null. */
export function parseRooms(content: string): RoomInfo[] | null {
  try {
    const value = JSON.parse(content) as { rooms?: unknown };
    return Array.isArray(value?.rooms) ? (value.rooms as RoomInfo[]) : null;
  } catch {
    return null;
  }
}

/** The room id (or "No Room") in an answer written as `final_choice: <ROOM_ID>`, else the whole text. */
export function parseFinalChoice(answer: string): string {
  const match = /final_choice:\s*([^\n]+)/i.exec(answer);
  return (match ? match[1]! : answer).replace(/[*`"'.]/g, '').trim();
}

function usesRoomTool(req: FixtureRequest): boolean {
  return (
    req.tools.some((tool) => tool.name === ROOM_TOOL_NAME) ||
    req.messages.some((m) => m.tool_calls?.some((call) => call.function.name === ROOM_TOOL_NAME))
  );
}

/**
 * The agent's model. First turn: calls `get_rooms_and_availability` with the date, time and duration read from
 * the prompt. After the tool result: answers `final_choice: <ROOM_ID>` chosen by `chooseRoom` with only the
 * rules its system and user messages state — so a better prompt gives more right answers.
 */
export function simulatedRoomSelectorModel(): Responder {
  return {
    name: 'simulated-room-selector',
    match: usesRoomTool,
    reply: (req): FixtureReply => {
      const promptText = textOf(req.messages, ['system', 'user']);
      const request = parseRoomRequest(textOf(req.messages, ['user']));
      const rules = rulesStatedIn(promptText);
      const toolResult = req.messages.filter((m) => m.role === 'tool').at(-1);
      if (!request) {
        return {
          content: `final_choice: ${NO_ROOM}\nreason: (simulated model) the request names no date, time, duration or attendee count`,
        };
      }
      if (!toolResult) {
        const { date, time, duration_min } = request;
        return {
          content: null,
          tool_calls: [{ name: ROOM_TOOL_NAME, arguments: { date, time, duration_min } }],
        };
      }
      const rooms = parseRooms(contentText(toolResult.content)) ?? [];
      const choice = chooseRoom(rooms, request, rules);
      const applied = [...rules].join(', ') || 'none';
      return {
        content: `final_choice: ${choice}\nreason: (simulated model) applied the rules the prompt states: ${applied}`,
      };
    },
  };
}

/** Text between `<tag …>` and `</tag>` (first occurrence), or null. */
function tagged(text: string, tag: string): string | null {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(text);
  return match ? match[1]!.trim() : null;
}

interface Experiment {
  reward: number | null;
  messages: ChatMessage[];
}

/** The experiments of a gradient request: reward and the messages of the run's last LLM call. */
function parseExperiments(block: string): Experiment[] {
  const out: Experiment[] = [];
  for (const match of block.matchAll(/<experiment\b([^>]*)>([\s\S]*?)<\/experiment>/g)) {
    const reward = /final_reward="([^"]*)"/.exec(match[1]!)?.[1];
    const body = match[2]!;
    const start = body.indexOf('[');
    const end = body.lastIndexOf(']');
    let conversations: Array<{ messages?: ChatMessage[] }> = [];
    try {
      conversations = start >= 0 ? JSON.parse(body.slice(start, end + 1)) : [];
    } catch {
      conversations = [];
    }
    const numeric = reward === undefined ? Number.NaN : Number(reward);
    out.push({
      reward: Number.isFinite(numeric) ? numeric : null,
      messages: conversations.at(-1)?.messages ?? [],
    });
  }
  return out;
}

/**
 * The simulated critic's critique: for every failed experiment (reward < 1) the rules missing from the
 * template that explain its answer (`diagnose`); names at most `maxRules` of them, most frequent first, each
 * as `Add the rule: "<statement>"`.
 */
export function critiqueExperiments(template: string, block: string, maxRules = 2): string {
  const stated = rulesStatedIn(template);
  const experiments = parseExperiments(block);
  const failed = experiments.filter((e) => e.reward === null || e.reward < 1);
  const counts = new Map<RoomRuleId, number>();
  for (const experiment of failed) {
    const request = parseRoomRequest(textOf(experiment.messages, ['user']));
    const tool = experiment.messages.filter((m) => m.role === 'tool').at(-1);
    const answer = experiment.messages.filter((m) => m.role === 'assistant' && m.content).at(-1);
    const rooms = tool ? parseRooms(contentText(tool.content)) : null;
    if (!request || !rooms || !answer) continue;
    for (const rule of diagnose(
      parseFinalChoice(contentText(answer.content)),
      rooms,
      request,
      stated,
    )) {
      counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
  }
  const header = `Critique (simulated critic, rule-based): ${failed.length} of ${experiments.length} runs failed.`;
  const order = ROOM_RULES.map((rule) => rule.id);
  const ranked = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))
    .slice(0, maxRules);
  if (ranked.length === 0) {
    return `${header}\n- No missing rule explains the failures; keep the prompt as it is.`;
  }
  const bullets = ranked.map(
    ([rule, n]) =>
      `- In ${n} failed run(s) the chosen room broke a rule the prompt never states. ` +
      `Add the rule: "${roomRule(rule).statement}"`,
  );
  return [header, ...bullets].join('\n');
}

/** The simulated editor: the template with every rule the critique asks for (and it lacks) appended. */
export function applyCritique(template: string, critique: string): string {
  const stated = rulesStatedIn(template);
  const wanted = ROOM_RULES.filter((rule) => critique.includes(rule.statement))
    .filter((rule) => !stated.has(rule.id))
    .sort((a, b) => critique.indexOf(a.statement) - critique.indexOf(b.statement));
  if (wanted.length === 0) return template;
  const head = /\nRules:\n/.test(template) ? template.trimEnd() : `${template.trimEnd()}\n\nRules:`;
  return `${head}\n${wanted.map((rule) => `- ${rule.statement}`).join('\n')}`;
}

/** APO's textual-gradient call, answered by `critiqueExperiments`. */
export function simulatedPromptCritic(maxRules = 2): Responder {
  return {
    name: 'simulated-prompt-critic',
    match: (req) =>
      req.lastUserText.includes('<experiments>') && req.lastUserText.includes('<prompt_template>'),
    reply: (req) => {
      const template = tagged(req.lastUserText, 'prompt_template') ?? '';
      const block = tagged(req.lastUserText, 'experiments') ?? '';
      return { content: critiqueExperiments(template, block, maxRules) };
    },
  };
}

/** APO's apply-edit call, answered by `applyCritique`. */
export function simulatedPromptEditor(): Responder {
  return {
    name: 'simulated-prompt-editor',
    match: (req) =>
      req.lastUserText.includes('<critique>') && req.lastUserText.includes('<prompt_template>'),
    reply: (req) => {
      const template = tagged(req.lastUserText, 'prompt_template') ?? '';
      const critique = tagged(req.lastUserText, 'critique') ?? '';
      return { content: applyCritique(template, critique) };
    },
  };
}

/** The agent's model, APO's critic and its editor, for `startFixtureLlm({ responders })`. */
export function roomSelectorResponders(
  options: { maxRulesPerCritique?: number } = {},
): Responder[] {
  return [
    simulatedPromptCritic(options.maxRulesPerCritique),
    simulatedPromptEditor(),
    simulatedRoomSelectorModel(),
  ];
}
