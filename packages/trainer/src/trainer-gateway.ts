import type { NamedResources } from '@arclight/core';
import { type GatewayOptions, type LlmGateway, startGateway } from '@arclight/gateway';
import type { LightningStore } from '@arclight/store';

/** The LLM gateway a trainer starts in-process next to its algorithm (`TrainerOptions.gateway`). */
export interface TrainerGatewayOptions extends Omit<GatewayOptions, 'store' | 'tracer'> {
  /** Name of the `ProxyLLM` resource added to the algorithm's `initialResources`. Default `"llm"`. */
  resourceName?: string;
  /** The resource's `model`. Default: the first model a backend lists, else `"default"`. */
  model?: string;
  /** Called with the running gateway (e.g. to `pause()`/`resume()` it around weight updates). */
  onStart?: (gateway: LlmGateway) => void;
}

/**
 * Runs `run` with a gateway recording into `store` (the algorithm's store) and its `ProxyLLM` added to the
 * initial resources; the gateway stops (flushing its spans) when `run` settles. Without options, runs `run`
 * with the resources unchanged.
 */
export async function runWithGateway<R>(
  options: TrainerGatewayOptions | undefined,
  store: LightningStore,
  initialResources: NamedResources | undefined,
  run: (initialResources: NamedResources | undefined) => Promise<R>,
): Promise<R> {
  if (!options) return run(initialResources);
  const { resourceName = 'llm', model, onStart, ...gatewayOptions } = options;
  const gateway = await startGateway({ ...gatewayOptions, store });
  try {
    onStart?.(gateway);
    return await run({ ...initialResources, [resourceName]: gateway.asResource({ model }) });
  } finally {
    await gateway.stop();
  }
}
