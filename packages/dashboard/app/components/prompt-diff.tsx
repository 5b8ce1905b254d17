import { diffWordsWithSpace } from 'diff';

/** Word-level diff of two prompt templates: removed text struck through, added text highlighted. */
export function PromptDiff({ before, after }: { before: string; after: string }) {
  const parts = diffWordsWithSpace(before, after);
  const added = parts.filter((p) => p.added).reduce((n, p) => n + p.value.length, 0);
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + p.value.length, 0);
  return (
    <div class="diff" data-testid="prompt-diff">
      <p class="muted">
        +{added} / −{removed} characters
      </p>
      <pre>
        {parts.map((part, i) =>
          part.added ? (
            <ins key={i}>{part.value}</ins>
          ) : part.removed ? (
            <del key={i}>{part.value}</del>
          ) : (
            <span key={i}>{part.value}</span>
          ),
        )}
      </pre>
    </div>
  );
}
