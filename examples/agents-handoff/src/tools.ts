import { tool } from '@openai/agents';
import { z } from 'zod';

const OPERATIONS = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
} as const;

export type Operation = keyof typeof OPERATIONS;

/** `calculator({ a, op, b })` → the result as text. */
export const calculator = tool({
  name: 'calculator',
  description: 'Computes a op b for op in add, subtract, multiply, divide.',
  parameters: z.object({
    a: z.number(),
    op: z.enum(['add', 'subtract', 'multiply', 'divide']),
    b: z.number(),
  }),
  execute: async ({ a, op, b }) => {
    if (op === 'divide' && b === 0) throw new Error('division by zero');
    return String(OPERATIONS[op](a, b));
  },
});

/** The billing system of the example. */
const INVOICES: Record<string, { amount_due: string; status: string }> = {
  'INV-1001': { amount_due: '$0.00', status: 'paid' },
  'INV-1002': { amount_due: '$245.00', status: 'open' },
  'INV-1003': { amount_due: '$1,030.50', status: 'overdue' },
};

/** `lookup_invoice({ invoice_id })` → the invoice as JSON. */
export const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Looks up an invoice by id (e.g. INV-1002): amount due and status.',
  parameters: z.object({ invoice_id: z.string() }),
  execute: async ({ invoice_id }) => {
    const invoice = INVOICES[invoice_id.toUpperCase()];
    if (!invoice) throw new Error(`unknown invoice ${invoice_id}`);
    return JSON.stringify({ invoice_id, ...invoice });
  },
});
