import type { ChatMessage, FixtureReply, FixtureRequest, Responder } from '@arclight/test-fixtures';
import { Agent, type Model, OpenAIChatCompletionsModel, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

/**
 * The scenario of the integration tests: a triage agent hands "What is A + B?" off to a math agent, which
 * calls its `add` tool and answers with the sum. The responder plays the model: it answers from the
 * request alone (offered tools, last tool call), so concurrent runs are served correctly.
 */
export const mathResponder: Responder = {
  name: 'math-scenario',
  match: () => true,
  reply: (req) => scriptedReply(req),
};

function scriptedReply(req: FixtureRequest): FixtureReply {
  const toolNames = req.tools.map((t) => t.name);
  if (toolNames.includes('transfer_to_math_agent')) {
    return { tool_calls: [{ name: 'transfer_to_math_agent', arguments: {} }] };
  }
  if (toolNames.includes('add')) {
    const result = lastToolResult(req.messages, 'add');
    if (result !== undefined) return { content: `The answer is ${result}.` };
    const [a, b] = (req.lastUserText.match(/-?\d+/g) ?? ['0', '0']).map(Number);
    return { tool_calls: [{ name: 'add', arguments: { a: a ?? 0, b: b ?? 0 } }] };
  }
  return { content: 'I cannot help with that.' };
}

/** Content of the tool message answering the last call of `name`, if it was answered. */
function lastToolResult(messages: readonly ChatMessage[], name: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const call = messages[i]?.tool_calls?.find((c) => c.function.name === name);
    if (!call) continue;
    const answer = messages.slice(i + 1).find((m) => m.tool_call_id === call.id);
    return typeof answer?.content === 'string' ? answer.content : undefined;
  }
  return undefined;
}

export interface ScenarioOptions {
  model: Model;
  /** Makes the tool throw. */
  failingTool?: boolean;
  /** Sent in every request (vLLM's `return_token_ids`). */
  returnTokenIds?: boolean;
}

/** The triage agent (its handoff target is the math agent). */
export function buildAgents(options: ScenarioOptions): { triage: Agent; math: Agent } {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      if (options.failingTool) throw new Error('calculator is broken');
      return String(a + b);
    },
  });
  const modelSettings = options.returnTokenIds ? { providerData: { return_token_ids: true } } : {};
  const math = new Agent({
    name: 'math_agent',
    instructions: 'You solve arithmetic with the add tool.',
    handoffDescription: 'Solves arithmetic questions.',
    model: options.model,
    modelSettings,
    tools: [add],
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'Route the user to the right specialist.',
    model: options.model,
    modelSettings,
    handoffs: [math],
  });
  return { triage, math };
}

export function chatModel(baseURL: string): OpenAIChatCompletionsModel {
  const client = new OpenAI({ baseURL, apiKey: 'fixture', maxRetries: 0 });
  return new OpenAIChatCompletionsModel(client, 'fixture-model');
}
