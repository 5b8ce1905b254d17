import {
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import {
  type OpenAIInstrumentationOptions,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
import { patchOpenAI, resolveOpenAIClass } from './patch.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';

/** Supported `openai` majors. */
export const SUPPORTED_OPENAI_VERSIONS = ['>=5 <8'];

export type OpenAIInstrumentationConfig = InstrumentationConfig &
  Omit<OpenAIInstrumentationOptions, 'tracerProvider'>;

/**
 * `@opentelemetry/instrumentation` flavour of {@link instrumentOpenAI}. Once enabled (the default), every copy
 * of `openai` loaded afterwards is patched: by `require` (require-in-the-middle) and, when import-in-the-middle's
 * loader hook is registered (`node --import @arclight/instrumentation-openai/register`, which also creates one
 * of these), by `import`. Copies loaded before can be passed to {@link OpenAIInstrumentation.manuallyInstrument}.
 */
export class OpenAIInstrumentation extends InstrumentationBase<OpenAIInstrumentationConfig> {
  // Lazily created: the base constructor calls init()/enable() before subclass fields exist.
  private patched?: Map<unknown, () => void>;
  private resolved?: { config: OpenAIInstrumentationConfig; options: ResolvedOptions };

  constructor(options: OpenAIInstrumentationOptions & { enabled?: boolean } = {}) {
    const { tracerProvider, ...config } = options;
    super(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, config);
    if (tracerProvider) this.setTracerProvider(tracerProvider);
  }

  protected init(): InstrumentationNodeModuleDefinition {
    return new InstrumentationNodeModuleDefinition(
      'openai',
      SUPPORTED_OPENAI_VERSIONS,
      (moduleExports: unknown) => {
        this.patchModule(moduleExports);
        return moduleExports;
      },
      (moduleExports: unknown) => this.unpatchModule(moduleExports),
    );
  }

  /** Instruments an `openai` module or `OpenAI` class loaded with `import` (ESM). */
  manuallyInstrument(openai: unknown): void {
    this.patchModule(openai);
  }

  override disable(): void {
    super.disable();
    for (const restore of this.patched?.values() ?? []) restore();
    this.patched?.clear();
  }

  private currentOptions(): ResolvedOptions {
    const config = this.getConfig();
    if (this.resolved?.config !== config)
      this.resolved = { config, options: resolveOptions(config) };
    return this.resolved.options;
  }

  private patchModule(moduleExports: unknown): void {
    const restore = patchOpenAI(moduleExports, {
      tracer: () => this.tracer,
      options: () => this.currentOptions(),
    });
    if (!restore) return;
    this.patched ??= new Map();
    this.patched.set(resolveOpenAIClass(moduleExports) ?? moduleExports, restore);
  }

  private unpatchModule(moduleExports: unknown): void {
    const key = resolveOpenAIClass(moduleExports) ?? moduleExports;
    this.patched?.get(key)?.();
    this.patched?.delete(key);
  }
}
