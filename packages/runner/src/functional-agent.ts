import {
  type AttemptedRollout,
  type LLM,
  type NamedResources,
  type PromptTemplate,
  ValidationError,
} from '@arclight/core';
import { LitAgent } from './lit-agent.js';
import { consoleLogger, type RunnerLogger } from './logger.js';
import { selectLlm, selectPromptTemplate } from './resource-selection.js';
import type { RolloutRawResult } from './rollout-result.js';

type MaybePromise<V> = V | Promise<V>;

/** What a `rollout(...)` function receives besides the task. `llm` and `promptTemplate` are resolved on access. */
export interface RolloutContext {
  resources: NamedResources;
  rollout: AttemptedRollout;
  /** The first LLM resource (a `ProxyLLM` routed to this attempt unless `stripProxy: false`); throws if none. */
  readonly llm: LLM;
  /** The first `PromptTemplate` resource; throws if none. */
  readonly promptTemplate: PromptTemplate;
}

export type RolloutFunction<T> = (task: T, ctx: RolloutContext) => MaybePromise<RolloutRawResult>;
export type LlmRolloutFunction<T> = (
  task: T,
  llm: LLM,
  rollout: AttemptedRollout,
) => MaybePromise<RolloutRawResult>;
export type PromptRolloutFunction<T> = (
  task: T,
  promptTemplate: PromptTemplate,
  rollout: AttemptedRollout,
) => MaybePromise<RolloutRawResult>;

export interface FunctionalAgentOptions {
  /** Resolve a `ProxyLLM` to a plain `LLM` routed to the rollout attempt. Default true (as upstream). */
  stripProxy?: boolean;
  /** Receives warnings (e.g. several LLM resources). Default: the console. */
  logger?: RunnerLogger;
}

type Invoke<T> = (
  task: T,
  resources: NamedResources,
  rollout: AttemptedRollout,
  agent: FunctionalLitAgent<T>,
) => MaybePromise<RolloutRawResult>;

/** An agent made from a function (upstream `FunctionalLitAgent`); built by `rollout`, `llmRollout`, `promptRollout`. */
export class FunctionalLitAgent<T = unknown> extends LitAgent<T> {
  readonly stripProxy: boolean;
  readonly logger: RunnerLogger;

  constructor(
    private readonly invoke: Invoke<T>,
    options: FunctionalAgentOptions = {},
  ) {
    super();
    this.stripProxy = options.stripProxy ?? true;
    this.logger = options.logger ?? consoleLogger;
  }

  override async rollout(
    task: T,
    resources: NamedResources,
    rollout: AttemptedRollout,
  ): Promise<RolloutRawResult> {
    return await this.invoke(task, resources, rollout, this);
  }

  /** The first LLM resource, as the wrapped function receives it. */
  llmOf(resources: NamedResources, rollout: AttemptedRollout): LLM {
    return selectLlm(resources, rollout, this.stripProxy, this.logger);
  }

  /** The first prompt template resource. */
  promptTemplateOf(resources: NamedResources, rollout: AttemptedRollout): PromptTemplate {
    return selectPromptTemplate(resources, rollout, this.logger);
  }
}

function requireFunction(name: string, fn: unknown): void {
  if (typeof fn !== 'function') {
    throw new ValidationError(`${name}: expected a function, got ${typeof fn}`);
  }
}

/**
 * An agent from `(task, { resources, rollout, llm, promptTemplate }) => result` (upstream `@rollout`).
 * `llm` and `promptTemplate` are getters: only the ones the function reads must exist.
 */
export function rollout<T = unknown>(
  fn: RolloutFunction<T>,
  options: FunctionalAgentOptions = {},
): FunctionalLitAgent<T> {
  requireFunction('rollout', fn);
  return new FunctionalLitAgent<T>((task, resources, attempted, agent) => {
    const ctx: RolloutContext = {
      resources,
      rollout: attempted,
      get llm() {
        return agent.llmOf(resources, attempted);
      },
      get promptTemplate() {
        return agent.promptTemplateOf(resources, attempted);
      },
    };
    return fn(task, ctx);
  }, options);
}

/**
 * An agent from `(task, llm, rollout) => result` (upstream `@llm_rollout`): `llm` is the first LLM resource;
 * with `stripProxy` (default) a `ProxyLLM` arrives as an `LLM` whose endpoint routes to this attempt.
 */
export function llmRollout<T = unknown>(
  fn: LlmRolloutFunction<T>,
  options: FunctionalAgentOptions = {},
): FunctionalLitAgent<T> {
  requireFunction('llmRollout', fn);
  return new FunctionalLitAgent<T>(
    (task, resources, attempted, agent) => fn(task, agent.llmOf(resources, attempted), attempted),
    options,
  );
}

/** An agent from `(task, promptTemplate, rollout) => result` (upstream `@prompt_rollout`). */
export function promptRollout<T = unknown>(
  fn: PromptRolloutFunction<T>,
  options: Omit<FunctionalAgentOptions, 'stripProxy'> = {},
): FunctionalLitAgent<T> {
  requireFunction('promptRollout', fn);
  return new FunctionalLitAgent<T>(
    (task, resources, attempted, agent) =>
      fn(task, agent.promptTemplateOf(resources, attempted), attempted),
    options,
  );
}
