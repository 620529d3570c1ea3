import {
  isRedditUsername,
  normalizeRedditUsername,
  type TImportDoNotContactResponse,
  type TSuppressionReason,
} from '@threadreach/contract';

export const REASON_LABELS: Record<TSuppressionReason, string> = {
  refusal: 'Asked not to be contacted',
  user_doesnt_exist: 'User does not exist',
  not_whitelisted: 'Does not accept DMs',
  manual: 'Added by hand',
  import: 'Imported',
  contacted: 'Contacted from a deleted project',
};

export const REASON_COLORS: Record<TSuppressionReason, string> = {
  refusal: 'red',
  user_doesnt_exist: 'gray',
  not_whitelisted: 'orange',
  manual: 'blue',
  import: 'blue',
  contacted: 'grape',
};

/** Names typed into the add box: separated by commas, spaces or new lines, prefixes stripped. */
export function parseNames(text: string): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    if (!raw) continue;
    const name = normalizeRedditUsername(raw);
    if (isRedditUsername(name)) valid.push(name);
    else invalid.push(raw);
  }
  return { valid, invalid };
}

export function importSummary(result: TImportDoNotContactResponse): string {
  const parts = [`${result.added} added`, `${result.already_listed} already listed`];
  if (result.invalid_count > 0) {
    parts.push(`${result.invalid_count} invalid ${result.invalid_count === 1 ? 'line' : 'lines'}`);
  }
  return `Import done: ${parts.join(', ')}.`;
}
