/** One OpenAI-compatible server the gateway forwards to. */
export interface BackendConfig {
  /** Base URL of its OpenAI API, e.g. `http://10.0.0.5:8000/v1`. */
  url: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged, never recorded. */
  apiKey?: string;
  /** Model names it serves; absent = any model. */
  models?: string[];
  /** Replace the request's `model` with this name (the name the server was started with). */
  servedModel?: string;
  /**
   * Ask for token ids (`return_token_ids: true`, vLLM >= 0.10.2 / SGLang). Default true; set false for servers
   * that reject unknown fields (OpenAI's own API).
   */
  tokenIds?: boolean;
}

/** A backend and its live state. */
export class Backend {
  outstanding = 0;
  healthy = true;
  served = 0;
  failures = 0;

  constructor(readonly config: BackendConfig) {}

  get url(): string {
    return this.config.url.replace(/\/+$/, '');
  }

  serves(model: string | undefined): boolean {
    const models = this.config.models;
    return (
      models === undefined || models.length === 0 || (model !== undefined && models.includes(model))
    );
  }
}

/** Backends by model: least-outstanding-requests choice among healthy ones, periodic health checks. */
export class BackendPool {
  readonly backends: Backend[];
  private rotation = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(configs: readonly BackendConfig[]) {
    this.backends = configs.map((config) => new Backend(config));
  }

  /** Models every backend lists (for `GET /v1/models` when each backend names its models). */
  listedModels(): string[] | undefined {
    if (this.backends.some((b) => !b.config.models || b.config.models.length === 0))
      return undefined;
    return [...new Set(this.backends.flatMap((b) => b.config.models ?? []))];
  }

  /**
   * The backend for the next attempt of a call: serves `model`, not tried yet by this call when another is
   * left, healthy first, then fewest outstanding requests (ties rotate).
   */
  pick(model: string | undefined, tried: ReadonlySet<Backend>): Backend | undefined {
    const serving = this.backends.filter((b) => b.serves(model));
    if (serving.length === 0) return undefined;
    const fresh = serving.filter((b) => !tried.has(b));
    const pool = fresh.length > 0 ? fresh : serving;
    const healthy = pool.filter((b) => b.healthy);
    const candidates = healthy.length > 0 ? healthy : pool;
    const least = Math.min(...candidates.map((b) => b.outstanding));
    const best = candidates.filter((b) => b.outstanding === least);
    this.rotation = (this.rotation + 1) % 1_000_000;
    return best[this.rotation % best.length];
  }

  /** Probes every backend's `GET /models` every `intervalMs` (a 2xx-4xx answer is healthy). */
  startHealthChecks(intervalMs: number, timeoutMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    const probe = () => {
      for (const backend of this.backends) void this.probe(backend, timeoutMs);
    };
    this.timer = setInterval(probe, intervalMs);
    this.timer.unref();
  }

  stopHealthChecks(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async probe(backend: Backend, timeoutMs: number): Promise<boolean> {
    try {
      const headers: Record<string, string> = {};
      if (backend.config.apiKey) headers.authorization = `Bearer ${backend.config.apiKey}`;
      const res = await fetch(`${backend.url}/models`, {
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      backend.healthy = res.status < 500;
    } catch {
      backend.healthy = false;
    }
    return backend.healthy;
  }
}
