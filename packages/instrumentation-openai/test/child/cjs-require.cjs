// Child process of process.test.ts. Enables OpenAIInstrumentation, then loads the SDK with a plain CommonJS
// `require('openai')`, which must come back instrumented; prints the finished spans as JSON.
const { OpenAIInstrumentation } = require(process.env.ARCLIGHT_OPENAI_ENTRY);
const sdkTrace = require(process.env.ARCLIGHT_SDK_TRACE_ENTRY);

async function main() {
  const exporter = new sdkTrace.InMemorySpanExporter();
  const provider = new sdkTrace.TracerProvider({
    spanProcessors: [new sdkTrace.SimpleSpanProcessor({ exporter })],
  });
  new OpenAIInstrumentation({ tracerProvider: provider, requestTokenIds: true });

  const OpenAI = require('openai');
  const client = new OpenAI({ baseURL: process.env.FIXTURE_BASE_URL, apiKey: 'x', maxRetries: 0 });
  const answer = await client.chat.completions.create({
    model: 'fixture-model',
    messages: [{ role: 'user', content: 'hello from cjs' }],
  });
  const spans = exporter
    .getFinishedSpans()
    .map((s) => ({ name: s.name, attributes: s.attributes }));
  process.stdout.write(JSON.stringify({ answer: answer.choices[0].message.content, spans }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
