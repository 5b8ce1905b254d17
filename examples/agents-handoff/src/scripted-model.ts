import type { ChatMessage, FixtureReply, FixtureRequest, Responder } from '@arclight/test-fixtures';

/**
 * The offline "model" of the example, served by the fixture LLM server. It reads each request the way the
 * agents' instructions ask a real model to behave: the triage agent (offered the transfer tools) hands off
 * by topic; a specialist first calls its tool with arguments taken from the question, then answers from the
 * tool's result. Every reply depends on the request alone, so runs are deterministic.
 */
export const scriptedModel: Responder = {
  name: 'agents-handoff-script',
  match: (req) => req.api === 'chat.completions',
  reply: (req) => reply(req),
};

function reply(req: FixtureRequest): FixtureReply {
  const tools = new Set(req.tools.map((t) => t.name));
  const question = firstUserText(req.messages);
  if (tools.has('transfer_to_billing_specialist') || tools.has('transfer_to_math_specialist')) {
    const target = /invoice|bill|paid|payment/i.test(question)
      ? 'transfer_to_billing_specialist'
      : 'transfer_to_math_specialist';
    return { tool_calls: [{ name: target, arguments: {} }] };
  }
  if (tools.has('calculator')) {
    const result = toolResult(req.messages, 'calculator');
    if (result !== undefined) return { content: `The answer is ${result}.` };
    return { tool_calls: [{ name: 'calculator', arguments: parseArithmetic(question) }] };
  }
  if (tools.has('lookup_invoice')) {
    const result = toolResult(req.messages, 'lookup_invoice');
    if (result !== undefined) return { content: describeInvoice(result) };
    const invoiceId = /INV-\d+/i.exec(question)?.[0]?.toUpperCase() ?? 'unknown';
    return { tool_calls: [{ name: 'lookup_invoice', arguments: { invoice_id: invoiceId } }] };
  }
  return { content: 'Sorry, I cannot help with that.' };
}

function firstUserText(messages: readonly ChatMessage[]): string {
  const user = messages.find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/** The answer to the last call of `name`, once the conversation has it. */
function toolResult(messages: readonly ChatMessage[], name: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const call = messages[i]?.tool_calls?.find((c) => c.function.name === name);
    if (!call) continue;
    const answer = messages.slice(i + 1).find((m) => m.tool_call_id === call.id);
    return typeof answer?.content === 'string' ? answer.content : undefined;
  }
  return undefined;
}

function parseArithmetic(question: string): { a: number; op: string; b: number } {
  const [a = 0, b = 0] = (question.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  const op = /divided|over|\//i.test(question)
    ? 'divide'
    : /times|multipl|\*/i.test(question)
      ? 'multiply'
      : /minus|subtract|-/i.test(question)
        ? 'subtract'
        : 'add';
  return { a, op, b };
}

function describeInvoice(json: string): string {
  try {
    const invoice = JSON.parse(json) as { invoice_id: string; amount_due: string; status: string };
    if (invoice.status === 'paid') return `Invoice ${invoice.invoice_id} has been paid in full.`;
    return `Invoice ${invoice.invoice_id} is ${invoice.status}: ${invoice.amount_due} is still due.`;
  } catch {
    return `I could not read the invoice: ${json}`;
  }
}
