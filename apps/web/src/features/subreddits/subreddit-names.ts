const MEMBERS = new Intl.NumberFormat('en-US');

export function formatMembers(count: number): string {
  return `${MEMBERS.format(count)} ${count === 1 ? 'member' : 'members'}`;
}

/** Relevance is a fraction from 0 to 1; shown as a percentage. */
export function formatRelevance(score: number): string {
  return `Relevance ${Math.round(score * 100)}%`;
}
