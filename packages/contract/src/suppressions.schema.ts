import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';

/** Reddit's user names: 3 to 20 letters, digits, underscores and hyphens. */
export const REDDIT_USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;
export const INVALID_REDDIT_USERNAME = 'Invalid Reddit user name (3-20 letters, digits, _ or -)';

/** At most this many names per add request. */
export const DO_NOT_CONTACT_ADD_MAX = 500;
/** An import is CSV text of at most this many characters (about 20,000 names). */
export const DO_NOT_CONTACT_IMPORT_MAX_CHARS = 500_000;
/** An import reads at most this many lines. */
export const DO_NOT_CONTACT_IMPORT_MAX_LINES = 20_000;
/** An import reports at most this many invalid lines one by one (the count covers them all). */
export const DO_NOT_CONTACT_INVALID_SHOWN = 100;
export const DO_NOT_CONTACT_NOTE_MAX = 500;

const PROFILE_PREFIX = /^(?:https?:\/\/(?:[a-z]+\.)?reddit\.com)?\/?(?:u|user)\//i;

/**
 * A name as people paste it: `u/name`, `/u/name`, `/user/name`, a profile link or `@name` become
 * `name`; anything else is only trimmed (and then refused by the pattern if it is not a name).
 */
export function normalizeRedditUsername(raw: string): string {
  return raw
    .trim()
    .replace(PROFILE_PREFIX, '')
    .replace(/^@/, '')
    .replace(/[/?#].*$/, '')
    .trim();
}

export function isRedditUsername(value: string): boolean {
  return REDDIT_USERNAME_PATTERN.test(value);
}

/** A Reddit user name typed or pasted by a person, prefixes stripped. */
export const ZRedditUsername = ZText()
  .max(200)
  .transform(normalizeRedditUsername)
  .pipe(z.string().regex(REDDIT_USERNAME_PATTERN, { error: INVALID_REDDIT_USERNAME }));

/**
 * Why a person is on the do-not-contact list: they asked (refusal), Reddit refused a DM to them
 * (user_doesnt_exist, not_whitelisted), the customer added them (manual, import), or a DM reached them from
 * a project since deleted (contacted).
 */
export const ZSuppressionReason = z.enum([
  'refusal',
  'user_doesnt_exist',
  'not_whitelisted',
  'manual',
  'import',
  'contacted',
]);
export type TSuppressionReason = z.infer<typeof ZSuppressionReason>;

/**
 * A refusal stays on the list forever, and so does a person a deleted project contacted (nobody is
 * contacted twice); every other entry can be removed.
 */
export const PERMANENT_SUPPRESSION_REASONS: readonly TSuppressionReason[] = ['refusal', 'contacted'];

export const ZDoNotContactEntry = z
  .object({
    username: z.string(),
    reason: ZSuppressionReason,
    note: z.string().nullable(),
    created_at: ZIsoDateTime,
    /** False for refusals and contacts of deleted projects: those people stay on the list. */
    removable: z.boolean(),
  })
  .meta({ id: 'DoNotContactEntry' });
export type TDoNotContactEntry = z.infer<typeof ZDoNotContactEntry>;

/** The workspace's list, newest first; `search` finds names containing it. */
export const ZDoNotContactQuery = ZPageQuery.extend({
  search: ZText().trim().max(40).optional(),
});
export type TDoNotContactQuery = z.input<typeof ZDoNotContactQuery>;

export const ZDoNotContactList = ZPage(ZDoNotContactEntry);
export type TDoNotContactList = z.infer<typeof ZDoNotContactList>;

export const ZAddDoNotContactRequest = z.object({
  usernames: z
    .array(ZRedditUsername)
    .min(1, { error: 'Enter at least one Reddit user name' })
    .max(DO_NOT_CONTACT_ADD_MAX, { error: `At most ${DO_NOT_CONTACT_ADD_MAX} names at once` }),
  note: ZText().trim().max(DO_NOT_CONTACT_NOTE_MAX).optional(),
});
export type TAddDoNotContactRequest = z.input<typeof ZAddDoNotContactRequest>;

export const ZAddDoNotContactResponse = z.object({
  /** Names newly on the list. */
  added: z.array(z.string()),
  /** Names that were on the list already (their entry is unchanged). */
  already_listed: z.array(z.string()),
});
export type TAddDoNotContactResponse = z.infer<typeof ZAddDoNotContactResponse>;

export const ZDoNotContactParams = z.object({
  username: ZText().max(200).transform(normalizeRedditUsername),
});

/**
 * CSV text (a file read by the browser, or pasted): one name per line, or a header row with a
 * `username` column. `u/` and `/u/` prefixes and profile links are accepted.
 */
export const ZImportDoNotContactRequest = z.object({
  csv: z.string().max(DO_NOT_CONTACT_IMPORT_MAX_CHARS, {
    error: `The file is too large (at most ${DO_NOT_CONTACT_IMPORT_MAX_CHARS.toLocaleString('en-US')} characters)`,
  }),
  note: ZText().trim().max(DO_NOT_CONTACT_NOTE_MAX).optional(),
});
export type TImportDoNotContactRequest = z.input<typeof ZImportDoNotContactRequest>;

export const ZInvalidImportLine = z.object({
  /** 1-based line number in the file. */
  line: z.number().int(),
  value: z.string(),
  reason: z.string(),
});
export type TInvalidImportLine = z.infer<typeof ZInvalidImportLine>;

export const ZImportDoNotContactResponse = z.object({
  added: z.number().int(),
  already_listed: z.number().int(),
  invalid_count: z.number().int(),
  /** The first invalid lines, in file order. */
  invalid: z.array(ZInvalidImportLine),
});
export type TImportDoNotContactResponse = z.infer<typeof ZImportDoNotContactResponse>;
