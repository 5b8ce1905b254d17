/** One page of the agent's offline encyclopedia. */
export interface Page {
  id: string;
  title: string;
  text: string;
}

/**
 * A small fictional encyclopedia (fictional so no model can answer from memory: it has to look things up).
 * Every question of `tasks.ts` takes two pages: the first names the entity the second one describes.
 */
export const PAGES: readonly Page[] = [
  {
    id: 'lumen-tower',
    title: 'Lumen Tower',
    text: 'The Lumen Tower is a 212-metre office tower in Port Calder, completed in 2011. It was designed by the architect Ada Okafor.',
  },
  {
    id: 'ada-okafor',
    title: 'Ada Okafor',
    text: 'Ada Okafor is an architect born in Ghana in 1969. She studied in Kumasi and London.',
  },
  {
    id: 'harbor-sparrows',
    title: 'Harbor Sparrows',
    text: 'The Harbor Sparrows are a basketball team founded in 1987 and based in the city of Vélmont.',
  },
  {
    id: 'velmont',
    title: 'Vélmont',
    text: 'Vélmont is a river port of 340,000 inhabitants on the river Ardent, known for its glass works.',
  },
  {
    id: 'glass-orchard',
    title: 'Glass Orchard (opera)',
    text: "Glass Orchard is an opera in three acts first staged in 1904; its composer was Tomas Rijk, who wrote it in Vélmont's glass quarter.",
  },
  {
    id: 'tomas-rijk',
    title: 'Tomas Rijk',
    text: 'Tomas Rijk (1861-1930) was a composer and a cellist; he played the cello in the Vélmont court orchestra for twenty years.',
  },
  {
    id: 'kestrel-engine',
    title: 'Kestrel engine',
    text: 'The Kestrel engine is a compact steam engine invented by Mira Sato in 1921, who studied at Northfield University.',
  },
  {
    id: 'northfield-university',
    title: 'Northfield University',
    text: 'Northfield University is a public research university founded in 1872 in the town of Northfield.',
  },
];

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The tool `search`: the (up to) three pages sharing the most words with the query, best first. */
export function search(query: string): { id: string; title: string }[] {
  const wanted = new Set(words(query));
  return PAGES.map((page) => ({
    page,
    score: words(`${page.title} ${page.title} ${page.text}`).filter((w) => wanted.has(w)).length,
  }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map(({ page }) => ({ id: page.id, title: page.title }));
}

/** The tool `open_page`: the page's text, or an error naming the unknown id. */
export function openPage(id: string): Page | { error: string } {
  return PAGES.find((page) => page.id === id) ?? { error: `no page with id ${JSON.stringify(id)}` };
}
