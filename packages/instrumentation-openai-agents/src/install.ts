import { type ChatCompletionsModelClass, observeChatRequestTools } from './chat-request-tools.js';
import type { LightningTracingProcessorOptions } from './options.js';
import { LightningTracingProcessor } from './processor.js';

/**
 * The two registration functions of `@openai/agents` and its Chat Completions model class (pass the module:
 * `import * as agents from '@openai/agents'`).
 */
export interface AgentsTracingApi {
  addTraceProcessor(processor: LightningTracingProcessor): void;
  setTraceProcessors(processors: LightningTracingProcessor[]): void;
  /** Observed so that Chat Completions calls record the tools their requests offer. */
  OpenAIChatCompletionsModel?: ChatCompletionsModelClass;
}

export interface InstrumentOpenAIAgentsOptions extends LightningTracingProcessorOptions {
  /**
   * `true`: replace the SDK's processors (`setTraceProcessors`), so nothing is exported to OpenAI's trace
   * dashboard; `false` (default): add to them (`addTraceProcessor`).
   */
  exclusive?: boolean;
}

export interface AgentsInstrumentation {
  readonly processor: LightningTracingProcessor;
  /**
   * Stops recording (the SDK cannot remove a single processor, so it is disabled in place) and stops observing
   * the Chat Completions model's requests.
   */
  uninstrument(): void;
}

/**
 * Registers a {@link LightningTracingProcessor} with the Agents SDK, and observes the SDK's
 * `OpenAIChatCompletionsModel` so its LLM-call spans carry the tools each request offered
 * (`observeChatRequestTools`; the Responses model's spans carry them already).
 */
export function instrumentOpenAIAgents(
  agents: AgentsTracingApi,
  options: InstrumentOpenAIAgentsOptions = {},
): AgentsInstrumentation {
  const { exclusive = false, ...processorOptions } = options;
  const processor = new LightningTracingProcessor(processorOptions);
  if (exclusive) agents.setTraceProcessors([processor]);
  else agents.addTraceProcessor(processor);
  const unobserve = agents.OpenAIChatCompletionsModel
    ? observeChatRequestTools(agents.OpenAIChatCompletionsModel)
    : () => {};
  return {
    processor,
    uninstrument: () => {
      processor.disable();
      unobserve();
    },
  };
}
