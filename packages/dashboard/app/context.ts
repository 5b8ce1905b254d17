import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { StoreApi } from './api/store-api.js';
import type { Settings } from './settings.js';

export interface AppContextValue {
  api: StoreApi;
  settings: Settings;
  setSettings(settings: Settings): void;
  /** Increments every polling interval: pages reload their data when it changes. */
  tick: number;
  /** Reports the outcome of a request, for the connection indicator. */
  report(error: Error | null): void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside <App>');
  return value;
}
