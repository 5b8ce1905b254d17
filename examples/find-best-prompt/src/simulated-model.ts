import { contentText, type FixtureRequest, type Responder, respond } from '@arclight/test-fixtures';
import { TASKS } from './tasks.js';

export const SIMULATED_MODEL = 'simulated-assistant';
const JUDGE_MARKER = 'Evaluate how well the output fulfills the task';

const userText = (req: FixtureRequest): string =>
  req.messages
    .filter((m) => m.role === 'user' || m.role === 'system')
    .map((m) => contentText(m.content))
    .join('\n');

/**
 * The offline stand-in for a model (not a language model): it knows the key points of this example's
 * questions and states as many as its persona suggests — "knowledgeable" all of them, "helpful" half, anything
 * else one, wrapped in small talk.
 */
function answer(req: FixtureRequest): string {
  const text = userText(req);
  const task = TASKS.find((t) => text.includes(t.question));
  if (!task) return 'I am not sure. (simulated assistant)';
  const points = task.key_points;
  if (/knowledgeable/i.test(text)) return `In short: ${points.join('; ')}. (simulated assistant)`;
  if (/helpful/i.test(text)) {
    return `Good question! ${points.slice(0, Math.ceil(points.length / 2)).join('; ')}. (simulated assistant)`;
  }
  return `Oh, what a fun one! It's mostly about ${points[0]}. Have a lovely day! (simulated assistant)`;
}

/** The simulated judge: the share of the key points listed in its prompt that the output mentions. */
function judge(req: FixtureRequest): string {
  const text = userText(req);
  const points = (/Key points:\s*([^\n]*)/.exec(text)?.[1] ?? '')
    .split(';')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const output = (/Output:\s*([\s\S]*?)\nKey points:/.exec(text)?.[1] ?? '').toLowerCase();
  if (points.length === 0) return '0';
  const covered = points.filter((p) => output.includes(p)).length;
  return String(Math.round((covered / points.length) * 100) / 100);
}

/** The simulated model (`SIMULATED_MODEL`): a judge for the judge's prompt, else the assistant. */
export function simulatedModels(): Responder[] {
  const ours = (req: FixtureRequest) => req.model === SIMULATED_MODEL;
  return [
    respond(
      (req) => ours(req) && req.lastUserText.includes(JUDGE_MARKER),
      judge,
      'simulated-judge',
    ),
    respond(ours, answer, 'simulated-assistant'),
  ];
}
