import { Agent, type ModelSettings } from '@openai/agents';
import { calculator, lookupInvoice } from './tools.js';

/**
 * A triage agent that hands off to one of two specialists; each specialist answers with its tool.
 * `model` is a model name resolved by the runner's model provider.
 */
export function buildTriageAgent(model: string, modelSettings: Partial<ModelSettings>): Agent {
  const math = new Agent({
    name: 'math_specialist',
    handoffDescription: 'Answers arithmetic questions.',
    instructions:
      'You answer arithmetic questions. Always use the calculator tool, then state the result.',
    model,
    modelSettings,
    tools: [calculator],
  });
  const billing = new Agent({
    name: 'billing_specialist',
    handoffDescription: 'Answers questions about invoices and payments.',
    instructions:
      'You answer billing questions. Look the invoice up with lookup_invoice, then answer from it.',
    model,
    modelSettings,
    tools: [lookupInvoice],
  });
  return new Agent({
    name: 'triage',
    instructions:
      'You route customer questions: hand arithmetic to the math specialist and invoice questions to the billing specialist. Never answer yourself.',
    model,
    modelSettings,
    handoffs: [math, billing],
  });
}
