import { TraceToMessages } from '@arclight/adapter';
import { APO } from '@arclight/algorithms';
import { InMemoryLightningStore } from '@arclight/store';
import {
  loadRoomTasks,
  type RoomSelectionTask,
  roomSelectorResponders,
  splitTrainVal,
  startFixtureLlm,
} from '@arclight/test-fixtures';
import { Trainer } from '@arclight/trainer';
import OpenAI from 'openai';
import { baselinePrompt, fetchRoomSelector } from './agent.js';

export interface GatewayApoResult {
  store: InMemoryLightningStore;
  seedPrompt: string;
  bestPrompt: string;
  /** Validation reward of the seed prompt and of the best prompt found. */
  seedScore: number | null;
  bestScore: number | null;
  /** Validation reward per beam round (the round leader). */
  rounds: Array<number | null>;
  /** The gateway's base URL while it ran. */
  gatewayUrl: string;
}

/**
 * APO on the room-selector task with a simulated model (the fixture server), the agent calling it through the
 * LLM gateway the Trainer starts in-process; every LLM call reaches the store as a gateway span.
 */
export async function trainThroughGateway(
  options: {
    tasks?: RoomSelectionTask[];
    beamRounds?: number;
    nRunners?: number;
    quiet?: boolean;
  } = {},
): Promise<GatewayApoResult> {
  const llm = await startFixtureLlm({ recordings: false, responders: roomSelectorResponders() });
  const { train, val } = splitTrainVal(options.tasks ?? loadRoomTasks());
  const store = new InMemoryLightningStore();
  const rounds: Array<number | null> = [];
  let seedScore: number | null = null;
  let bestScore: number | null = null;
  let gatewayUrl = '';
  const apo = new APO<RoomSelectionTask>({
    client: new OpenAI({ baseURL: llm.baseUrl, apiKey: 'fixture', maxRetries: 0 }),
    gradientModel: 'simulated-critic',
    applyEditModel: 'simulated-editor',
    beamRounds: options.beamRounds ?? 2,
    beamWidth: 2,
    branchFactor: 2,
    gradientBatchSize: 4,
    valBatchSize: 8,
    seed: 7,
    pollInterval: 0.1,
    logger: options.quiet ? null : undefined,
    onProgress: (event) => {
      if (event.type === 'round-end') rounds.push(event.leader.score);
      if (event.type === 'done') {
        seedScore = event.seed.score;
        bestScore = event.best.score;
      }
    },
  });
  const seed = baselinePrompt();
  const trainer = new Trainer<RoomSelectionTask>({
    nRunners: options.nRunners ?? 4,
    store,
    algorithm: apo,
    adapter: new TraceToMessages(),
    initialResources: { prompt_template: seed },
    // The gateway: in front of the model, recording into the trainer's store; its ProxyLLM is `main_llm`.
    gateway: {
      backends: [{ url: llm.baseUrl }],
      resourceName: 'main_llm',
      model: 'simulated-room-selector',
      healthCheckIntervalMs: 0,
      onStart: (gateway) => {
        gatewayUrl = gateway.url;
      },
    },
    runner: { pollInterval: 0.05, intervalJitter: 0.02 },
    handleSignals: false,
  });
  try {
    await trainer.fit(fetchRoomSelector, { trainDataset: train, valDataset: val });
  } finally {
    await llm.close();
  }
  return {
    store,
    seedPrompt: seed.template,
    bestPrompt: apo.getBestPrompt().template,
    seedScore,
    bestScore,
    rounds,
    gatewayUrl,
  };
}
