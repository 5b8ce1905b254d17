import { runFindBestPrompt } from './run.js';

const summary = await runFindBestPrompt();
console.log('');
console.log('prompt                                         reward');
for (const result of summary.prompts) {
  console.log(`${result.prompt.padEnd(46)} ${result.reward.toFixed(3)}`);
}
console.log(
  `\nBest prompt: '${summary.best.prompt}' (reward ${summary.best.reward.toFixed(3)}), ${summary.rollouts} rollouts.`,
);
if (summary.simulated)
  console.log('(Simulated offline model; set OPENAI_BASE_URL / OPENAI_API_KEY to use a real one.)');
