import { useState } from 'preact/hooks';
import { StoreApi } from '../api/store-api.js';
import { Section } from '../components/ui.js';
import { useApp } from '../context.js';
import { defaultStoreUrl, type Settings } from '../settings.js';

export function SettingsPage() {
  const { settings, setSettings } = useApp();
  const [draft, setDraft] = useState<Settings>(settings);
  const [check, setCheck] = useState<string>('');
  const update = (changes: Partial<Settings>) => setDraft({ ...draft, ...changes });
  return (
    <Section title="Settings">
      <form
        class="settings"
        onSubmit={(e) => {
          e.preventDefault();
          setSettings(draft);
          setCheck('Saved.');
        }}
      >
        <label>
          Store URL
          <input
            name="storeUrl"
            type="url"
            required
            value={draft.storeUrl}
            onInput={(e) => update({ storeUrl: (e.target as HTMLInputElement).value })}
          />
          <small>
            Arclight's <code>arclight store</code> or upstream's <code>agl store</code> (start it
            with <code>--cors-origin {location.origin}</code> when it is not the server of this
            page). Default {defaultStoreUrl()}.
          </small>
        </label>
        <label>
          Token
          <input
            name="token"
            type="password"
            autoComplete="off"
            value={draft.token}
            onInput={(e) => update({ token: (e.target as HTMLInputElement).value })}
          />
          <small>
            The store's shared secret (<code>--token</code> / ARCLIGHT_STORE_TOKEN), if it requires
            one.
          </small>
        </label>
        <label>
          Refresh every (seconds, 0 = never)
          <input
            name="refreshSeconds"
            type="number"
            min="0"
            step="1"
            value={draft.refreshSeconds}
            onInput={(e) =>
              update({
                refreshSeconds: Math.max(0, Number((e.target as HTMLInputElement).value) || 0),
              })
            }
          />
        </label>
        <label>
          Theme
          <select
            name="theme"
            value={draft.theme}
            onChange={(e) =>
              update({ theme: (e.target as HTMLSelectElement).value as Settings['theme'] })
            }
          >
            <option value="system">system</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <div class="buttons">
          <button type="submit">Save</button>
          <button
            type="button"
            onClick={async () => {
              setCheck('Checking…');
              try {
                await new StoreApi(draft.storeUrl, draft.token).workers();
                setCheck(`Connected to ${draft.storeUrl}.`);
              } catch (error) {
                setCheck((error as Error).message);
              }
            }}
          >
            Test connection
          </button>
        </div>
        <p data-testid="settings-status">{check}</p>
      </form>
    </Section>
  );
}
