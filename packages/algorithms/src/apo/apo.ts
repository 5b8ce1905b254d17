import { TraceToMessages } from '@arclight/adapter';
import {
  type Algorithm,
  type AlgorithmContext,
  type Logger,
  type NamedResources,
  PromptTemplate,
  resolveLogger,
  ValidationError,
  verboseConsoleLogger,
} from '@arclight/core';
import OpenAI from 'openai';
import { batchIterOverDataset } from '../batches.js';
import { SeededRandom } from '../random.js';
import { AlgorithmStopped } from '../rollout-batch.js';
import { BeamSearch } from './beam-search.js';
import type { APOEvent, APORound } from './events.js';
import { type APOOptions, type ResolvedAPOOptions, resolveAPOOptions } from './options.js';

/**
 * Automatic Prompt Optimization (upstream `APO`, v0.3.0 `algorithm/apo/apo.py`): beam search over prompt
 * templates with textual gradients (ProTeGi, TextGrad). Each round samples parents from the beam; for each
 * parent and branch it runs the parent on a training batch, asks a model for a critique of the runs
 * ("textual gradient") and another call to rewrite the template along the critique ("apply edit"); then the
 * beam and the new candidates are scored on a validation batch and the best `beamWidth` kept; the leader is
 * scored on the whole validation set and becomes the best prompt if it beats the best so far.
 *
 * Needs a `PromptTemplate` among the trainer's `initialResources` (the seed), both datasets, and a
 * `TraceToMessages` adapter (the default when the trainer has none). Every evaluated prompt is published with
 * `updateResources("v<n>", …)` — the initial resources with the template swapped in, so an LLM resource next
 * to the prompt reaches the agent too (upstream publishes the prompt alone).
 */
export class APO<T = unknown> implements Algorithm<T> {
  readonly options: ResolvedAPOOptions;
  private readonly client: OpenAI | undefined;
  private readonly clientConfig: { baseURL?: string; apiKey?: string };
  private readonly seed: number | undefined;
  private readonly resourceName: string | undefined;
  private readonly onProgress: ((event: APOEvent) => void) | undefined;
  private readonly logger: Logger;
  private current: BeamSearch<T> | null = null;

  constructor(options: APOOptions = {}) {
    this.options = resolveAPOOptions(options);
    this.client = options.client;
    this.clientConfig = { baseURL: options.baseURL, apiKey: options.apiKey };
    this.seed = options.seed;
    this.resourceName = options.resourceName;
    this.onProgress = options.onProgress;
    this.logger = resolveLogger(options.logger, verboseConsoleLogger);
  }

  /** The best prompt found (upstream `get_best_prompt`); throws before `run()` has started. */
  getBestPrompt(): PromptTemplate {
    if (!this.current)
      throw new ValidationError('getBestPrompt: no best prompt yet; run APO first');
    return this.current.best.template;
  }

  /** Version of the best prompt (`v0` = the seed), or null before `run()`. */
  get bestVersion(): string | null {
    return this.current?.best.version ?? null;
  }

  /** Full-validation score of the best prompt (−Infinity until one was scored). */
  get bestScore(): number {
    return this.current?.bestScore ?? Number.NEGATIVE_INFINITY;
  }

  /** The seed's full-validation score (null without `runInitialValidation`). */
  get seedScore(): number | null {
    return this.current?.seedScore ?? null;
  }

  /** One entry per finished round of the latest run. */
  get history(): APORound[] {
    return this.current?.history ?? [];
  }

  /** The seed prompt: `resourceName`, else the first `PromptTemplate` of the initial resources. */
  getSeedPromptTemplate(resources: NamedResources | undefined): [string, PromptTemplate] {
    if (!resources) {
      throw new ValidationError(
        'initialResources: APO needs initial resources with a PromptTemplate (the seed prompt); ' +
          'pass them to the Trainer',
      );
    }
    const entries = Object.entries(resources).filter(
      ([name]) => this.resourceName === undefined || name === this.resourceName,
    );
    const found = entries.find(([, resource]) => resource instanceof PromptTemplate);
    if (!found) {
      throw new ValidationError(
        this.resourceName === undefined
          ? 'initialResources: no PromptTemplate resource found (APO optimises one)'
          : `initialResources.${this.resourceName}: expected a PromptTemplate resource`,
      );
    }
    return [found[0], found[1] as PromptTemplate];
  }

  async run(ctx: AlgorithmContext<T>): Promise<void> {
    const [resourceName, seedTemplate] = this.getSeedPromptTemplate(ctx.initialResources);
    const train = ctx.trainDataset;
    const val = ctx.valDataset;
    if (!train || train.length === 0) {
      throw new ValidationError('trainDataset: APO needs a non-empty training dataset');
    }
    if (!val || val.length === 0) {
      throw new ValidationError('valDataset: APO needs a non-empty validation dataset');
    }
    const adapter = ctx.adapter ?? new TraceToMessages();
    if (!(adapter instanceof TraceToMessages)) {
      throw new ValidationError('adapter: APO needs a TraceToMessages adapter (or none)');
    }
    const random = new SeededRandom(this.seed);
    const search = new BeamSearch<T>(
      {
        setup: {
          store: ctx.store,
          adapter,
          baseResources: ctx.initialResources ?? {},
          resourceName,
          timeout: this.options.rolloutBatchTimeout,
          pollInterval: this.options.pollInterval,
          signal: ctx.signal,
          logger: this.logger,
        },
        edit: { client: this.resolveClient(), options: this.options, random, logger: this.logger },
        gradBatches: batchIterOverDataset(train, this.options.gradientBatchSize, random),
        valBatches: batchIterOverDataset(val, this.options.valBatchSize, random),
        valDataset: val,
        options: this.options,
        logger: this.logger,
        emit: (event) => this.emit(event),
      },
      seedTemplate,
    );
    this.current = search;
    let stopped = false;
    try {
      await search.search();
    } catch (error) {
      if (!(error instanceof AlgorithmStopped)) throw error;
      stopped = true;
      this.logger.warn('APO stopped before finishing its rounds; keeping the best prompt so far');
    }
    this.emit({
      type: 'done',
      best: { version: search.best.version, score: search.finiteBest() },
      seed: { version: search.seed.version, score: search.seedScore },
      stopped,
    });
  }

  private resolveClient(): OpenAI {
    return this.client ?? new OpenAI({ ...this.clientConfig });
  }

  private emit(event: APOEvent): void {
    if (!this.onProgress) return;
    try {
      this.onProgress(event);
    } catch (error) {
      this.logger.error('APO: the onProgress callback threw', error);
    }
  }
}
