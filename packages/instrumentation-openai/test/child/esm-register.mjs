// Child process of esm-register.test.ts, run as `node --import <dist/register.js> main.mjs` in an app whose
// node_modules hold two copies of openai: the app's own and a nested one of a framework (`fw`). Both are
// loaded with `import`; both must come back instrumented. Prints the finished spans as JSON.
const { instrumentation } = await import(process.env.ARCLIGHT_REGISTER_ENTRY);
const sdkTrace = await import(process.env.ARCLIGHT_SDK_TRACE_ENTRY);
const { default: OpenAI } = await import('openai');
const { frameworkClient } = await import('fw');

const exporter = new sdkTrace.InMemorySpanExporter();
const provider = new sdkTrace.TracerProvider({
  spanProcessors: [new sdkTrace.SimpleSpanProcessor({ exporter })],
});
instrumentation.setTracerProvider(provider);

const options = { baseURL: process.env.FIXTURE_BASE_URL, apiKey: 'x', maxRetries: 0 };
const clients = { app: new OpenAI(options), framework: frameworkClient(options) };
const answers = {};
for (const [who, client] of Object.entries(clients)) {
  const answer = await client.chat.completions.create({
    model: 'fixture-model',
    messages: [{ role: 'user', content: `hello from ${who}` }],
  });
  answers[who] = answer.choices[0].message.content;
}
const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes }));
process.stdout.write(JSON.stringify({ answers, spans }));
