/**
 * Names typed in the bulk box: separated by commas or new lines, r/ prefixes stripped, blanks dropped,
 * each name once.
 */
export function parseSubredditNames(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of text.split(/[,\r\n]+/)) {
    const name = part
      .trim()
      .replace(/^\/?r\//i, '')
      .trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

const MEMBERS = new Intl.NumberFormat('en-US');

export function formatMembers(count: number): string {
  return `${MEMBERS.format(count)} ${count === 1 ? 'member' : 'members'}`;
}

/** Relevance is a fraction from 0 to 1; shown as a percentage. */
export function formatRelevance(score: number): string {
  return `Relevance ${Math.round(score * 100)}%`;
}
