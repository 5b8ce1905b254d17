import { contentText, type Responder } from '@arclight/test-fixtures';
import type { ResearchTask } from './tasks.js';

/**
 * A scripted stand-in for a small model, served by the fixture LLM server. It reads the conversation: no tool
 * result yet → `search` the first hop; after a search → `open_page` the hop's page; after the first page a
 * careful sample (even `seed`) searches and opens the second hop and answers right, a hasty one (odd `seed`)
 * answers from the first page and is wrong (its words differ from the first reply on). So one question's two samples differ in length and reward, as
 * sampled rollouts of a real model do. Deterministic: the same run gives the same bytes.
 */
export function simulatedResearchModel(tasks: readonly ResearchTask[]): Responder {
  return {
    name: 'simulated-research-model',
    match: (req) => req.tools.some((tool) => tool.name === 'open_page'),
    reply: (req) => {
      const task = tasks.find((t) =>
        req.messages.some((m) => contentText(m.content).includes(t.question)),
      );
      if (!task) return { content: 'I cannot find this in the encyclopedia.\nANSWER: unknown' };
      const results = req.messages.filter((m) => m.role === 'tool').length;
      const careful = Number(req.body.seed ?? 0) % 2 === 0;
      const hop = Math.floor(results / 2);
      if (results === 2 && !careful) {
        return { content: `The page says enough.\nANSWER: ${task.hasty_answer}` };
      }
      const step = task.hops[hop];
      if (!step) return { content: `Both pages agree.\nANSWER: ${task.answer}` };
      if (results % 2 === 0) {
        return {
          content: careful ? `Let me look up ${step.query}.` : `Searching: ${step.query}`,
          tool_calls: [{ name: 'search', arguments: { query: step.query } }],
        };
      }
      return {
        content: null,
        tool_calls: [{ name: 'open_page', arguments: { id: step.page } }],
      };
    },
  };
}
