import type { Responder } from '@arclight/test-fixtures';
import { respond } from '@arclight/test-fixtures';

/**
 * What the simulated model answers, per question: its first query and, where the first one is wrong, the
 * rewrite it produces after the checker's review. Some first queries fail (a column that does not exist, a
 * filter with the wrong case) so that rewrite_query runs; one wrong query passes the check (reward 0).
 */
export const SCRIPT: Readonly<Record<string, { write: string; rewrite?: string }>> = {
  'How many artists are in the database?': { write: 'SELECT COUNT(*) FROM Artist;' },
  'Which 5 genres have the most tracks? List the genre names.': {
    write:
      'SELECT g.Name FROM Genre g JOIN Track t ON t.Genre = g.GenreId GROUP BY g.Name ORDER BY COUNT(*) DESC LIMIT 5;',
    rewrite:
      'SELECT g.Name FROM Genre g JOIN Track t ON t.GenreId = g.GenreId GROUP BY g.GenreId ORDER BY COUNT(*) DESC LIMIT 5;',
  },
  'How many customers are from Brazil?': {
    write: "SELECT COUNT(*) FROM Customer WHERE Country = 'Brazil';",
  },
  'What is the total amount invoiced to customers billed in Germany?': {
    write: "SELECT SUM(Total) FROM Invoice WHERE BillingCountry = 'germany';",
    rewrite: "SELECT SUM(i.Total) FROM Invoice i WHERE i.BillingCountry = 'Germany';",
  },
  'Who are the Sales Support Agents? Give their first and last names.': {
    write: "SELECT FirstName FROM Employee WHERE Title = 'Sales Support Agent';",
  },
};

const FENCE = '```';

function systemText(messages: readonly { role: string; content?: unknown }[]): string {
  const system = messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

/** The text between `label` + a fenced block's opening line and its closing fence. */
function fencedAfter(text: string, label: string): string {
  const start = text.indexOf(label);
  if (start === -1) return '';
  const open = text.indexOf('\n', text.indexOf(FENCE, start));
  const close = text.indexOf(`\n${FENCE}`, open);
  return open === -1 || close === -1 ? '' : text.slice(open + 1, close);
}

function questionOf(userText: string): string {
  const line = userText.split('\n').find((l) => l.startsWith('Question: ')) ?? '';
  return line.slice('Question: '.length).trim();
}

/** A checker that reads the execution result the way a careful model would. */
function review(execution: string): string {
  if (execution.startsWith('Error:')) {
    const reason = execution.split('\n')[0] ?? execution;
    return `- The query failed to execute (${reason.slice('Error: '.length)}).\n\nTHE QUERY IS INCORRECT.`;
  }
  const rows = execution.split('\n').filter((l) => l.trim() !== '');
  if (
    execution === '(no rows)' ||
    rows.every((r) => /^\[(null,?)+\]$/.test(r.replace(/\s/g, '')))
  ) {
    return '- The result is empty or NULL, so the filter cannot match the data (check spelling and case).\n\nTHE QUERY IS INCORRECT.';
  }
  return 'No mistakes found.\n\nTHE QUERY IS CORRECT.';
}

/** The fixture responder playing the model of the three prompts (write, check, rewrite). */
export function scriptedSqlModel(): Responder {
  return respond(
    (req) => /^You (translate|review|fix)/.test(systemText(req.messages)),
    (req) => {
      const system = systemText(req.messages);
      const question = questionOf(req.lastUserText);
      const script = SCRIPT[question] ?? { write: 'SELECT 1;' };
      if (system.startsWith('You review')) {
        return review(fencedAfter(req.lastUserText, 'Execution result:'));
      }
      const query = system.startsWith('You fix') ? (script.rewrite ?? script.write) : script.write;
      return `${FENCE}sqlite\n${query}\n${FENCE}`;
    },
    'scripted-sql-model',
  );
}
