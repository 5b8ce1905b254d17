import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { DynamicTool } from '@langchain/core/tools';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { formatOutcome, type SqlDatabase } from './database.js';
import { CHECK_QUERY_PROMPT, REWRITE_QUERY_PROMPT, WRITE_QUERY_PROMPT } from './prompts.js';

export const SqlAgentState = Annotation.Root({
  question: Annotation<string>(),
  query: Annotation<string>(),
  execution: Annotation<string>(),
  feedback: Annotation<string>(),
  turns: Annotation<number>(),
});
export type SqlAgentStateType = typeof SqlAgentState.State;

export interface SqlAgentOptions {
  db: SqlDatabase;
  model: BaseChatModel;
  /** Write + rewrites allowed before giving up (upstream's `max_turns`, default 3). */
  maxTurns?: number;
  /** Characters of an execution result shown to the model (default 2048). */
  executionTruncate?: number;
}

/** The last fenced block of a reply (```sql … ```), else `undefined`. */
export function parseQuery(text: string): string | undefined {
  let query: string | undefined;
  for (const match of text.matchAll(/```\w*\n([\s\S]*?)\n```/g)) query = match[1]?.trim();
  return query;
}

/** The checker approved when its last verdict is `THE QUERY IS CORRECT`. */
export function approved(feedback: string): boolean {
  const correct = feedback.lastIndexOf('THE QUERY IS CORRECT');
  return correct !== -1 && correct > feedback.lastIndexOf('THE QUERY IS INCORRECT');
}

/**
 * The SQL agent as a LangGraph graph: write_query → execute_query → check_query, then either END (the
 * checker approved, or `maxTurns` reached) or rewrite_query → execute_query → check_query → …
 */
export function buildSqlAgent(options: SqlAgentOptions) {
  const { db, model } = options;
  const maxTurns = options.maxTurns ?? 3;
  const truncate = options.executionTruncate ?? 2048;
  const tableInfo = db.tableInfo();
  const runQuery = new DynamicTool({
    name: 'sql_db_query',
    description: 'Runs a SQL query against the database and returns the rows or the error.',
    func: async (query: string) => formatOutcome(db.run(query), truncate),
  });
  const text = async (prompt: typeof WRITE_QUERY_PROMPT, values: Record<string, string>) => {
    const messages = await prompt.invoke({ dialect: db.dialect, table_info: tableInfo, ...values });
    const reply = await model.invoke(messages);
    return typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
  };

  return new StateGraph(SqlAgentState)
    .addNode('write_query', async (s) => {
      const reply = await text(WRITE_QUERY_PROMPT, { input: s.question });
      return { query: parseQuery(reply) ?? reply, turns: 1 };
    })
    .addNode('execute_query', async (s) => ({ execution: await runQuery.invoke(s.query) }))
    .addNode('check_query', async (s) => ({
      feedback: await text(CHECK_QUERY_PROMPT, {
        input: s.question,
        query: s.query,
        execution: s.execution,
      }),
    }))
    .addNode('rewrite_query', async (s) => {
      const reply = await text(REWRITE_QUERY_PROMPT, {
        input: s.question,
        query: s.query,
        execution: s.execution,
        feedback: s.feedback,
      });
      return { query: parseQuery(reply) ?? s.query, turns: s.turns + 1 };
    })
    .addEdge(START, 'write_query')
    .addEdge('write_query', 'execute_query')
    .addEdge('execute_query', 'check_query')
    .addConditionalEdges('check_query', (s) =>
      approved(s.feedback) || s.turns >= maxTurns ? END : 'rewrite_query',
    )
    .addEdge('rewrite_query', 'execute_query')
    .compile();
}
