import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { StoreApi } from './api/store-api.js';
import { AppContext, type AppContextValue } from './context.js';
import { ProgressPage } from './pages/progress.js';
import { ResourcesPage } from './pages/resources.js';
import { RolloutPage } from './pages/rollout.js';
import { RolloutsPage } from './pages/rollouts.js';
import { RunnersPage } from './pages/runners.js';
import { SettingsPage } from './pages/settings.js';
import { href, useRoute } from './router.js';
import { applyTheme, loadSettings, type Settings, saveSettings } from './settings.js';

const PAGES = [
  ['rollouts', 'Rollouts'],
  ['progress', 'Training progress'],
  ['resources', 'Resources'],
  ['runners', 'Runners'],
  ['settings', 'Settings'],
] as const;

export function App() {
  const route = useRoute();
  const [settings, setSettingsState] = useState<Settings>(loadSettings);
  const [tick, setTick] = useState(0);
  const [paused, setPaused] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; at: number; message: string }>({
    ok: true,
    at: 0,
    message: '',
  });
  const api = useMemo(
    () => new StoreApi(settings.storeUrl, settings.token),
    [settings.storeUrl, settings.token],
  );

  // A layout effect: the theme's colours are in place before the charts (passive effects) read them.
  useLayoutEffect(() => {
    applyTheme(settings.theme);
    const media = matchMedia('(prefers-color-scheme: dark)');
    const follow = () => applyTheme(settings.theme);
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, [settings.theme]);

  useEffect(() => {
    if (paused || settings.refreshSeconds <= 0) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((t) => t + 1);
    }, settings.refreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [paused, settings.refreshSeconds]);

  const context: AppContextValue = {
    api,
    settings,
    tick,
    setSettings(next) {
      saveSettings(next);
      setSettingsState(next);
    },
    report(error) {
      setStatus({ ok: error === null, at: Date.now(), message: error?.message ?? '' });
    },
  };

  const page = route.path[0] ?? 'rollouts';
  const nextTheme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  let content = <RolloutsPage route={route} />;
  if (page === 'rollouts' && route.path[1]) content = <RolloutPage route={route} />;
  else if (page === 'progress') content = <ProgressPage />;
  else if (page === 'resources') content = <ResourcesPage route={route} />;
  else if (page === 'runners') content = <RunnersPage />;
  else if (page === 'settings') content = <SettingsPage />;

  return (
    <AppContext.Provider value={context}>
      <header class="top">
        <a class="brand" href={href(['rollouts'])}>
          Arclight
        </a>
        <nav>
          {PAGES.map(([id, label]) => (
            <a key={id} href={href([id])} class={page === id ? 'active' : ''}>
              {label}
            </a>
          ))}
        </nav>
        <div class="top-right">
          <span
            class={`conn ${status.ok ? 'ok' : 'bad'}`}
            data-testid="connection"
            title={status.ok ? `Connected to ${api.baseUrl}` : status.message}
          >
            ● {api.baseUrl.replace(/^https?:\/\//, '')}
          </span>
          <button type="button" onClick={() => setPaused(!paused)} title="Live updates (polling)">
            {paused || settings.refreshSeconds <= 0
              ? 'Live: off'
              : `Live: ${settings.refreshSeconds} s`}
          </button>
          <button
            type="button"
            data-testid="theme-toggle"
            onClick={() => context.setSettings({ ...settings, theme: nextTheme })}
          >
            {nextTheme === 'dark' ? 'Dark' : 'Light'} theme
          </button>
        </div>
      </header>
      <main>{content}</main>
    </AppContext.Provider>
  );
}
