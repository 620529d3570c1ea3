const NUMBER = new Intl.NumberFormat('en-US');

/** Account age as people say it: days, then months, then years. */
export function formatAccountAge(days: number | null): string {
  if (days === null) return 'account age unknown';
  if (days < 60) return `${days} ${days === 1 ? 'day' : 'days'} old`;
  if (days < 730) return `${Math.floor(days / 30)} months old`;
  return `${Math.floor(days / 365)} years old`;
}

export function formatKarma(karma: number | null): string {
  return karma === null ? 'karma unknown' : `${NUMBER.format(karma)} comment karma`;
}

/** Reddit's own pages, where the deployment's Reddit has them (the simulator's in the demo). */
export const REDDIT_WEB_URL = 'https://www.reddit.com';

/** Reddit links: the API gives permalinks as paths; a full address is kept as it is. */
export function redditUrl(permalink: string, base: string = REDDIT_WEB_URL): string {
  if (/^https?:\/\//i.test(permalink)) return permalink;
  return `${base.replace(/\/+$/, '')}${permalink.startsWith('/') ? '' : '/'}${permalink}`;
}

/** How long ago, in the largest whole unit. */
export function timeAgo(iso: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** Intent colours: strong, some, weak. */
export function intentColor(score: number): string {
  if (score >= 70) return 'green';
  if (score >= 40) return 'yellow';
  return 'gray';
}
