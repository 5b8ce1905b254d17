// Child process of process.test.ts (run with --expose-gc). Opens a stream, drops it unread, and collects
// garbage until the instrumentation's finalizer has ended the span; prints the span's attributes.
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import OpenAI from 'openai';
import { instrumentOpenAI } from '../../dist/index.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
instrumentOpenAI(OpenAI, { tracerProvider: provider });
const client = new OpenAI({ baseURL: process.env.FIXTURE_BASE_URL, apiKey: 'x', maxRetries: 0 });

async function openAndDrop() {
  const stream = await client.chat.completions.create({
    model: 'fixture-model',
    messages: [{ role: 'user', content: 'never read' }],
    stream: true,
  });
  return typeof stream.controller;
}

await openAndDrop();
for (let round = 0; round < 200 && exporter.getFinishedSpans().length === 0; round += 1) {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes)));
