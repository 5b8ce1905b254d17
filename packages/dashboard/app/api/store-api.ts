import type {
  Attempt,
  AttemptedRollout,
  PaginatedResult,
  ResourcesUpdate,
  Rollout,
  Span,
  Worker,
} from '../model/wire.js';

/** A failed request to the store, with a message that says what to do about it. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

const PAGE = 500;

type Query = Record<string, string | number | string[] | undefined>;

/**
 * The store's GET routes (`/v1/agl/*`) — the same on Arclight's server and upstream's `agl store`. Only reads:
 * the dashboard never changes a run.
 */
export class StoreApi {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private async get<T>(path: string, query: Query = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== '') params.append(key, String(item));
      }
    }
    const qs = params.toString();
    const url = `${this.baseUrl}/v1/agl${path}${qs ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(url, { headers });
    } catch {
      throw new StoreError(
        `Cannot reach the store at ${this.baseUrl}. Is it running? If it is on another origin than this page, ` +
          'start it with --cors-origin for this page (arclight store --cors-origin <origin>).',
        null,
      );
    }
    if (response.status === 401 || response.status === 403) {
      throw new StoreError(
        `The store at ${this.baseUrl} requires a token (HTTP ${response.status}): set it in Settings.`,
        response.status,
      );
    }
    if (!response.ok) {
      let detail = '';
      try {
        const body = (await response.json()) as { detail?: unknown };
        detail =
          typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail ?? body);
      } catch {
        detail = response.statusText;
      }
      throw new StoreError(
        `GET ${path} failed with HTTP ${response.status}: ${detail}`,
        response.status,
      );
    }
    return (await response.json()) as T;
  }

  /** Every item of a paginated route (pages of 500), at most `max`. */
  private async all<T>(
    path: string,
    query: Query,
    max: number,
  ): Promise<{ items: T[]; total: number }> {
    const items: T[] = [];
    let total = 0;
    for (let offset = 0; items.length < max; offset += PAGE) {
      const page = await this.get<PaginatedResult<T>>(path, {
        ...query,
        limit: Math.min(PAGE, max - items.length),
        offset,
      });
      items.push(...page.items);
      total = page.total;
      if (page.items.length === 0 || offset + page.items.length >= page.total) break;
    }
    return { items, total };
  }

  health(): Promise<unknown> {
    return this.get('/health');
  }

  /** The newest `max` rollouts (by start time), each with its latest attempt when it has one. */
  rollouts(
    statuses: string[] = [],
    max = 2000,
  ): Promise<{ items: (Rollout | AttemptedRollout)[]; total: number }> {
    return this.all(
      '/rollouts',
      { status_in: statuses, sort_by: 'start_time', sort_order: 'desc' },
      max,
    );
  }

  rollout(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    return this.get(`/rollouts/${encodeURIComponent(rolloutId)}`);
  }

  async attempts(rolloutId: string): Promise<Attempt[]> {
    return (
      await this.all<Attempt>(
        `/rollouts/${encodeURIComponent(rolloutId)}/attempts`,
        { sort_by: 'sequence_id', sort_order: 'asc' },
        10_000,
      )
    ).items;
  }

  async spans(rolloutId: string, attemptId?: string, name?: string): Promise<Span[]> {
    return (
      await this.all<Span>(
        '/spans',
        {
          rollout_id: rolloutId,
          attempt_id: attemptId,
          name,
          sort_by: 'sequence_id',
          sort_order: 'asc',
        },
        100_000,
      )
    ).items;
  }

  async resources(): Promise<ResourcesUpdate[]> {
    return (await this.all<ResourcesUpdate>('/resources', {}, 10_000)).items;
  }

  async workers(): Promise<Worker[]> {
    return (await this.all<Worker>('/workers', {}, 10_000)).items;
  }
}
