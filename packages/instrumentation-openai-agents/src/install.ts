import type { LightningTracingProcessorOptions } from './options.js';
import { LightningTracingProcessor } from './processor.js';

/** The two registration functions of `@openai/agents` (pass the module: `import * as agents from …`). */
export interface AgentsTracingApi {
  addTraceProcessor(processor: LightningTracingProcessor): void;
  setTraceProcessors(processors: LightningTracingProcessor[]): void;
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
  /** Stops recording (the SDK cannot remove a single processor, so it is disabled in place). */
  uninstrument(): void;
}

/** Registers a {@link LightningTracingProcessor} with the Agents SDK. */
export function instrumentOpenAIAgents(
  agents: AgentsTracingApi,
  options: InstrumentOpenAIAgentsOptions = {},
): AgentsInstrumentation {
  const { exclusive = false, ...processorOptions } = options;
  const processor = new LightningTracingProcessor(processorOptions);
  if (exclusive) agents.setTraceProcessors([processor]);
  else agents.addTraceProcessor(processor);
  return { processor, uninstrument: () => processor.disable() };
}
