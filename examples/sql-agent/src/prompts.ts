import { ChatPromptTemplate } from '@langchain/core/prompts';

// The three prompts of the agent. Same roles and output contracts as upstream's Spider SQL agent (a fenced
// query for write/rewrite; the checker ends with `THE QUERY IS CORRECT.` or `THE QUERY IS INCORRECT.`),
// worded for this example.

const FENCE = '```';

export const WRITE_QUERY_PROMPT = ChatPromptTemplate.fromMessages([
  [
    'system',
    `You translate questions about a {dialect} database into a single {dialect} query.

Use only tables and columns listed in the schema below, and check which table each column belongs to.

## Schema ##

{table_info}

## Answer format ##

Reply with the query in one fenced block:

${FENCE}{dialect}
YOUR QUERY
${FENCE}`,
  ],
  ['user', 'Question: {input}'],
]);

export const CHECK_QUERY_PROMPT = ChatPromptTemplate.fromMessages([
  [
    'system',
    `You review {dialect} queries written to answer a question. Look for:
- queries that failed to execute, or wrong table and column names
- wrong join columns, wrong filters (spelling, case, data types)
- results that cannot be the answer (empty, NULL, far too many rows)
- NOT IN with NULLs, UNION where UNION ALL is meant, BETWEEN on exclusive ranges

## Schema ##

{table_info}

## Answer format ##

List every mistake you find, then end with exactly one of these sentences, in capitals:
- THE QUERY IS INCORRECT.
- THE QUERY IS CORRECT.

Do not write a corrected query.`,
  ],
  [
    'user',
    `Question: {input}

Query:

${FENCE}{dialect}
{query}
${FENCE}

Execution result:

${FENCE}
{execution}
${FENCE}`,
  ],
]);

export const REWRITE_QUERY_PROMPT = ChatPromptTemplate.fromMessages([
  [
    'system',
    `You fix {dialect} queries. Rewrite the previous query so that it answers the question and addresses every
point of the review.

Use only tables and columns listed in the schema below, and check which table each column belongs to.

## Schema ##

{table_info}

## Answer format ##

Reply with the rewritten query in one fenced block:

${FENCE}{dialect}
REWRITTEN QUERY
${FENCE}`,
  ],
  [
    'user',
    `Question: {input}

## Previous query ##

${FENCE}{dialect}
{query}
${FENCE}

## Its execution result ##

${FENCE}
{execution}
${FENCE}

## Review ##

{feedback}

Rewrite the query.`,
  ],
]);
