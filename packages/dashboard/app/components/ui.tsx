import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function Badge({ value, kind }: { value: string | null | undefined; kind?: string }) {
  const text = value ?? '—';
  return <span class={`badge badge-${kind ?? text}`}>{text}</span>;
}

export function ErrorBox({ error }: { error: Error | null | undefined }) {
  if (!error) return null;
  return (
    <div class="error-box" role="alert">
      {error.message}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted">Loading {what}…</p>;
}

export function Json({ value }: { value: unknown }) {
  return (
    <pre class="json">{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>
  );
}

export function Section({
  title,
  children,
  actions,
  id,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
  id?: string;
}) {
  return (
    <section class="card" id={id}>
      <header class="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat" title={hint}>
      <div class="stat-value">{value}</div>
      <div class="stat-label">{label}</div>
    </div>
  );
}

export function Collapsible({
  title,
  children,
  open = false,
}: {
  title: string;
  children: ComponentChildren;
  open?: boolean;
}) {
  const [isOpen, setOpen] = useState(open);
  return (
    <div class="collapsible">
      <button type="button" class="link" onClick={() => setOpen(!isOpen)} aria-expanded={isOpen}>
        {isOpen ? '▾' : '▸'} {title}
      </button>
      {isOpen && <div class="collapsible-body">{children}</div>}
    </div>
  );
}
