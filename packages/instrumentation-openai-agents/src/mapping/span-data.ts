import {
  type AttributeBag,
  asArray,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
  type ToolCallRecord,
  type ToolDefinition,
} from '@arclight/core';
import { SpanKind } from '@opentelemetry/api';
import {
  AGENT_NAME,
  AgentsAttributes,
  AgentsSpanNames,
  LlmCallSpanNames,
  ToolAttributes,
} from '../keys.js';
import { writeGenerationAttributes } from './generation.js';
import { writeResponseAttributes } from './response.js';

/** How a span's data is written. */
export interface MappingOptions {
  /** The span is the LLM-call span (named and filled like `@arclight/instrumentation-openai`'s). */
  llmCall: boolean;
  /** Write prompts, completions, tool inputs/outputs (default true). */
  captureContent: boolean;
  /** The tools a Chat Completions request offered (not in `generation` span data; see chat-request-tools). */
  requestTools?: readonly ToolDefinition[];
}

/** Whether spans of this SDK type are model calls (`generation`: Chat Completions, `response`: Responses). */
export function isModelSpanType(type: string): boolean {
  return type === 'generation' || type === 'response';
}

/** The OTel span name of an SDK span type. */
export function spanNameOf(type: string, llmCall: boolean): string {
  switch (type) {
    case 'generation':
      return llmCall ? LlmCallSpanNames.CHAT : AgentsSpanNames.GENERATION;
    case 'response':
      return llmCall ? LlmCallSpanNames.RESPONSES : AgentsSpanNames.RESPONSE;
    case 'agent':
      return AgentsSpanNames.AGENT;
    case 'task':
      return AgentsSpanNames.TASK;
    case 'turn':
      return AgentsSpanNames.TURN;
    case 'function':
      return AgentsSpanNames.FUNCTION;
    case 'handoff':
      return AgentsSpanNames.HANDOFF;
    case 'guardrail':
      return AgentsSpanNames.GUARDRAIL;
    case 'custom':
      return AgentsSpanNames.CUSTOM;
    case 'mcp_tools':
      return AgentsSpanNames.MCP_TOOLS;
    default:
      return `${AgentsSpanNames.PREFIX}${/^[A-Za-z0-9_.-]{1,64}$/.test(type) ? type : 'span'}`;
  }
}

/** LLM calls are CLIENT spans (as `@arclight/instrumentation-openai`'s); everything else is INTERNAL. */
export function spanKindOf(type: string, llmCall: boolean): SpanKind {
  return llmCall && isModelSpanType(type) ? SpanKind.CLIENT : SpanKind.INTERNAL;
}

/**
 * Writes the attributes of an SDK span's data. Called at span start (what is known then, e.g. the agent's
 * name) and again at span end. Returns the tool calls of an LLM-call span's completion.
 */
export function writeDataAttributes(
  bag: AttributeBag,
  data: JsonRecord,
  options: MappingOptions,
): ToolCallRecord[] {
  const type = asString(data.type) ?? 'unknown';
  bag.set(AgentsAttributes.SPAN_TYPE, type);
  switch (type) {
    case 'agent':
      bag.set(AGENT_NAME, asString(data.name));
      bag.set(AgentsAttributes.AGENT_HANDOFFS, stringArray(data.handoffs));
      bag.set(AgentsAttributes.AGENT_TOOLS, stringArray(data.tools));
      bag.set(AgentsAttributes.AGENT_OUTPUT_TYPE, asString(data.output_type));
      return [];
    case 'task':
      bag.set(AgentsAttributes.TASK_NAME, asString(data.name));
      writeUsage(bag, data.usage);
      return [];
    case 'turn':
      bag.set(AgentsAttributes.TURN, data.turn);
      bag.set(AgentsAttributes.TURN_AGENT_NAME, asString(data.agent_name));
      writeUsage(bag, data.usage);
      return [];
    case 'function':
      bag.set(ToolAttributes.NAME, asString(data.name));
      if (options.captureContent) {
        bag.setJson(ToolAttributes.PARAMETERS, data.input);
        bag.setJson(ToolAttributes.OUTPUT, data.output);
      }
      bag.setJson(AgentsAttributes.FUNCTION_MCP_DATA, data.mcp_data);
      return [];
    case 'handoff':
      bag.set(AgentsAttributes.HANDOFF_FROM, asString(data.from_agent));
      bag.set(AgentsAttributes.HANDOFF_TO, asString(data.to_agent));
      return [];
    case 'guardrail':
      bag.set(AgentsAttributes.GUARDRAIL_NAME, asString(data.name));
      bag.set(AgentsAttributes.GUARDRAIL_TRIGGERED, data.triggered === true);
      return [];
    case 'custom':
      bag.set(AgentsAttributes.CUSTOM_NAME, asString(data.name));
      bag.setJson(AgentsAttributes.CUSTOM_DATA, data.data);
      return [];
    case 'mcp_tools':
      bag.set(AgentsAttributes.MCP_SERVER, asString(data.server));
      bag.set(AgentsAttributes.MCP_RESULT, stringArray(data.result));
      return [];
    case 'generation':
      if (options.llmCall) {
        return writeGenerationAttributes(bag, data, options.captureContent, options.requestTools);
      }
      writeModelSummary(bag, data.model, data.model_config, data.usage);
      return [];
    case 'response':
      if (options.llmCall) return writeResponseAttributes(bag, data, options.captureContent);
      bag.set(AgentsAttributes.RESPONSE_ID, asString(data.response_id));
      writeModelSummary(bag, asRecord(data._response)?.model, undefined, undefined);
      return [];
    default:
      writeOtherData(bag, data, options.captureContent);
      return [];
  }
}

/** A model span that is not the LLM call: model, settings and usage only (the call's own span has the rest). */
function writeModelSummary(
  bag: AttributeBag,
  model: unknown,
  config: unknown,
  usage: unknown,
): void {
  bag.set(AgentsAttributes.MODEL, asString(model));
  bag.setJson(AgentsAttributes.MODEL_CONFIG, asRecord(config));
  writeUsage(bag, usage);
}

/** Usage as the SDK reports it: `openai_agents.usage.<key>` for every numeric field. */
function writeUsage(bag: AttributeBag, usage: unknown): void {
  const record = asRecord(usage);
  if (!record) return;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'number') bag.set(`${AgentsAttributes.USAGE}.${key}`, value);
  }
}

/**
 * Span types without a dedicated mapping (transcription, speech, speech_group, future types): each public
 * field as `openai_agents.data.<field>`. Audio payloads and inputs/outputs count as content.
 */
function writeOtherData(bag: AttributeBag, data: JsonRecord, captureContent: boolean): void {
  for (const [key, value] of Object.entries(data)) {
    if (key === 'type' || key.startsWith('_')) continue;
    if (!captureContent && (key === 'input' || key === 'output')) continue;
    if (isRecord(value) || Array.isArray(value))
      bag.setJson(`${AgentsAttributes.DATA}.${key}`, value);
    else bag.set(`${AgentsAttributes.DATA}.${key}`, value);
  }
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const strings = asArray(value).filter((v): v is string => typeof v === 'string');
  return strings;
}
