// The real model behind the real-engine server: node-llama-cpp loaded from the cached engine folder, the GGUF's own
// chat template rendered with @huggingface/jinja, and token-by-token generation that reports each sampled id with
// its probability. Calls are served one at a time on one context sequence.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RealModelFiles } from './locate.js';

/** The parts of node-llama-cpp this module uses (the engine lives outside the workspace, so no type import). */
interface LlamaModelLike {
  tokenize(text: string, specialTokens?: boolean): number[];
  detokenize(tokens: readonly number[], specialTokens?: boolean): string;
  readonly tokens: {
    readonly bos: number | null;
    readonly eos: number | null;
    readonly eot: number | null;
  };
  readonly fileInfo: { metadata: { tokenizer?: { chat_template?: string } } };
  createContext(options: {
    contextSize: number;
    threads: number;
    sequences: number;
  }): Promise<LlamaContextLike>;
  isEogToken(token: number): boolean;
  dispose(): Promise<void>;
}
interface LlamaContextLike {
  getSequence(): LlamaSequenceLike;
  dispose(): Promise<void>;
}
interface EvaluateOutput {
  token: number;
  confidence?: number;
  probabilities?: Map<number, number>;
}
interface LlamaSequenceLike {
  clearHistory(): Promise<void>;
  evaluateWithMetadata(
    tokens: number[],
    metadata: { confidence: boolean; probabilities: boolean },
    options: { temperature: number; topP?: number; seed?: number; yieldEogToken?: boolean },
  ): AsyncGenerator<EvaluateOutput, void, void>;
}
interface JinjaTemplate {
  render(context: Record<string, unknown>): string;
}

export interface SampleOptions {
  maxTokens: number;
  /** 0 = greedy (deterministic). */
  temperature: number;
  topP?: number;
  seed?: number;
  /** How many alternatives per position to report (0 = only the sampled token's probability). */
  topLogprobs: number;
  /**
   * Ids the response must start with (constrained decoding, e.g. a forced tool call): reported as response ids with
   * logprob 0 — probability 1 under the constraint — then sampling continues after them.
   */
  forced?: readonly number[];
  /** End the generation once the response text (forced part included) contains this, e.g. `</tool_call>`. */
  endAfter?: string;
}

export interface SampledToken {
  id: number;
  logprob: number;
  top: { id: number; logprob: number }[];
}

export interface LoadOptions {
  /** Threads for generation; 1 by default (two threads collapse on a busy 2-core machine). */
  threads?: number;
  contextSize?: number;
}

const ln = (p: number) => (p > 0 ? Math.log(p) : -9999);

export class RealModel {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly model: LlamaModelLike,
    private readonly context: LlamaContextLike,
    private readonly sequence: LlamaSequenceLike,
    private readonly template: JinjaTemplate,
    /** Ids that end a generation (end-of-text, end-of-turn). */
    readonly stopIds: ReadonlySet<number>,
    readonly contextSize: number,
  ) {}

  static async load(files: RealModelFiles, options: LoadOptions = {}): Promise<RealModel> {
    const require = createRequire(join(files.engine_dir, 'package.json'));
    const importFromEngine = (name: string) => import(pathToFileURL(require.resolve(name)).href);
    const llamaCpp = await importFromEngine('node-llama-cpp');
    const jinja = await importFromEngine('@huggingface/jinja');
    const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
    const model = (await llama.loadModel({ modelPath: files.model_path })) as LlamaModelLike;
    const source = model.fileInfo.metadata.tokenizer?.chat_template;
    if (!source) throw new Error(`real-engine: ${files.model_path} carries no chat template`);
    const contextSize = options.contextSize ?? 4096;
    const context = await model.createContext({
      contextSize,
      threads: options.threads ?? 1,
      sequences: 1,
    });
    const stops = new Set<number>();
    for (const id of [model.tokens.eos, model.tokens.eot]) if (id !== null) stops.add(id);
    for (const special of ['<|im_end|>', '<|endoftext|>']) {
      const ids = model.tokenize(special, true);
      if (ids.length === 1) stops.add(ids[0]!);
    }
    return new RealModel(
      model,
      context,
      context.getSequence(),
      new jinja.Template(source) as JinjaTemplate,
      stops,
      contextSize,
    );
  }

  /** True for an id that ends a generation (end-of-text, end-of-turn and any other end-of-generation id). */
  isStop(id: number): boolean {
    return this.stopIds.has(id) || this.model.isEogToken(id);
  }

  /** Renders messages with the GGUF's own chat template. */
  render(messages: readonly Record<string, unknown>[], addGenerationPrompt: boolean): string {
    return this.template.render({ messages, add_generation_prompt: addGenerationPrompt });
  }

  /** Text → ids, special tokens (`<|im_start|>` …) recognised. */
  tokenize(text: string): number[] {
    return this.model.tokenize(text, true);
  }

  /** Ids → text, special tokens written out. */
  detokenize(ids: readonly number[]): string {
    return this.model.detokenize(ids, true);
  }

  /**
   * Samples up to `maxTokens` ids after `promptIds`; a stop id is reported (as vLLM includes it in `token_ids`) and
   * ends the generation. `onToken` sees each id as it is sampled (for streaming). Calls run one at a time.
   */
  generate(
    promptIds: readonly number[],
    options: SampleOptions,
    onToken?: (token: SampledToken) => void | Promise<void>,
    cancelled: () => boolean = () => false,
  ): Promise<{ tokens: SampledToken[]; stopped: boolean }> {
    const run = this.queue.then(() => this.run(promptIds, options, onToken, cancelled));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(
    promptIds: readonly number[],
    options: SampleOptions,
    onToken: ((token: SampledToken) => void | Promise<void>) | undefined,
    cancelled: () => boolean,
  ): Promise<{ tokens: SampledToken[]; stopped: boolean }> {
    if (promptIds.length + options.maxTokens > this.contextSize) {
      throw new RangeError(
        `prompt (${promptIds.length} tokens) + max_tokens (${options.maxTokens}) exceed the context size ${this.contextSize}`,
      );
    }
    await this.sequence.clearHistory();
    const tokens: SampledToken[] = [];
    const forced = (options.forced ?? []).slice(0, options.maxTokens);
    for (const id of forced) {
      const token = { id, logprob: 0, top: [] };
      tokens.push(token);
      await onToken?.(token);
    }
    if (tokens.length >= options.maxTokens) return { tokens, stopped: false };
    let stopped = false;
    const wantTop = options.topLogprobs > 0;
    const generator = this.sequence.evaluateWithMetadata(
      [...promptIds, ...forced],
      { confidence: true, probabilities: wantTop },
      {
        // The end-of-generation id is reported like any sampled id (vLLM includes it in token_ids).
        yieldEogToken: true,
        temperature: options.temperature,
        ...(options.topP !== undefined ? { topP: options.topP } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
      },
    );
    for await (const out of generator) {
      const top = wantTop
        ? [...(out.probabilities ?? new Map<number, number>())]
            .sort((a, b) => b[1] - a[1])
            .slice(0, options.topLogprobs)
            .map(([id, p]) => ({ id, logprob: ln(p) }))
        : [];
      const token = { id: out.token, logprob: ln(out.confidence ?? 0), top };
      tokens.push(token);
      await onToken?.(token);
      if (this.isStop(out.token)) {
        stopped = true;
        break;
      }
      if (tokens.length >= options.maxTokens || cancelled()) break;
      if (options.endAfter && this.detokenize(tokens.map((t) => t.id)).includes(options.endAfter)) {
        stopped = true;
        break;
      }
    }
    await generator.return(undefined);
    return { tokens, stopped };
  }

  async close(): Promise<void> {
    await this.queue;
    await this.context.dispose();
    await this.model.dispose();
  }
}
