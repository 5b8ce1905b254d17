import { runExample } from './example.js';

const { summary, allLlmCalls } = await runExample();
process.stderr.write(
  `LLM calls: ${summary.llm_calls} by write_query/rewrite_query (agentMatch), ${allLlmCalls} in all\n`,
);
console.log(JSON.stringify(summary));
