import { trainThroughGateway } from './train.js';

const started = Date.now();
const result = await trainThroughGateway();
const spans = result.store.querySpans.bind(result.store);
const rollouts = await result.store.queryRollouts({});
let llmCalls = 0;
for (const rollout of rollouts.items) {
  llmCalls += (await spans(rollout.rollout_id)).items.filter(
    (s) => s.name === 'openai.chat.completion',
  ).length;
}
const score = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
console.log(`Gateway: ${result.gatewayUrl} (started by the Trainer, stopped after training)`);
console.log(`Rollouts: ${rollouts.items.length}, LLM calls recorded by the gateway: ${llmCalls}`);
console.log(`Validation reward: seed ${score(result.seedScore)} → best ${score(result.bestScore)}`);
console.log(`Seed prompt: ${result.seedPrompt}`);
console.log(`Best prompt: ${result.bestPrompt}`);
console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
