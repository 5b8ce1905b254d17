/** What the user can set in the Settings page, kept in localStorage. */
export interface Settings {
  /** The store's base URL (the dashboard calls `${storeUrl}/v1/agl/...`). */
  storeUrl: string;
  /** Sent as `Authorization: Bearer` when the store requires one (`arclight store --token`). */
  token: string;
  /** Polling interval for live updates; 0 turns polling off. */
  refreshSeconds: number;
  theme: 'system' | 'light' | 'dark';
}

const KEY = 'arclight.dashboard.settings';

/** Served by a store: the page's own origin. Opened from a file: upstream's default port. */
export function defaultStoreUrl(): string {
  return location.protocol.startsWith('http') ? location.origin : 'http://127.0.0.1:4747';
}

export function loadSettings(): Settings {
  const defaults: Settings = {
    storeUrl: defaultStoreUrl(),
    token: '',
    refreshSeconds: 5,
    theme: 'system',
  };
  let saved: Partial<Settings> = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>;
  } catch {
    saved = {};
  }
  const settings = { ...defaults, ...saved };
  // `?store=<url>` (and `&token=`) in the page's address pick a store without visiting Settings.
  const params = new URLSearchParams(location.search);
  const store = params.get('store');
  if (store) settings.storeUrl = store;
  const token = params.get('token');
  if (token !== null) settings.token = token;
  return settings;
}

export function saveSettings(settings: Settings): void {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

export function applyTheme(theme: Settings['theme']): void {
  const dark =
    theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
