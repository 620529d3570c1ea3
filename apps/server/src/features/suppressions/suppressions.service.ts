import {
  DO_NOT_CONTACT_INVALID_SHOWN,
  PERMANENT_SUPPRESSION_REASONS,
  type TAddDoNotContactResponse,
  type TDoNotContactList,
  type TImportDoNotContactResponse,
  type TPageQuery,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../http/errors';
import { parseUsernameCsv } from './do-not-contact-csv';
import { presentSuppression } from './suppressions.presenter';
import {
  deleteSuppression,
  failQueuedDmsTo,
  findSuppression,
  hasRepliedInWorkspace,
  insertSuppressions,
  listSuppressions,
  usernameKey,
  type NewSuppression,
} from './suppressions.repository';
import type { SuppressionReason } from './suppressions.table';

/** Rows per insert while importing. */
const IMPORT_CHUNK = 1000;

const notListed = () => notFound('Not on the do-not-contact list');

/** Why a DM to this person may not go out; null when nothing stops it. */
export interface RecipientBlock {
  code: 'suppressed' | 'replied';
  reason: string;
}

/** Why a person is on the list, as the refusal of a DM says it. */
export const SUPPRESSED_BECAUSE: Record<SuppressionReason, string> = {
  refusal: 'asked not to be contacted',
  user_doesnt_exist: "Reddit said the account doesn't exist",
  not_whitelisted: 'does not accept messages',
  manual: 'added by hand',
  import: 'imported',
  contacted: 'contacted from a project since deleted',
};

/** Why a DM to someone on the list is refused, after their name ("u/x is on …"). */
export function onTheList(reason: SuppressionReason): string {
  return `is on this workspace's do-not-contact list (${SUPPRESSED_BECAUSE[reason]})`;
}

/** Why a DM to someone who answered the workspace before is refused. */
export function alreadyAnswered(username: string): string {
  return `u/${username} already answered a DM from this workspace`;
}

/**
 * Whether a DM of the workspace to this person must not be sent: they are on the do-not-contact list,
 * or they already answered one of its DMs. The send claim asks inside its transaction.
 */
export async function isRecipientBlocked(
  tx: DbOrTx,
  ownerUserId: string,
  username: string,
): Promise<RecipientBlock | null> {
  const key = usernameKey(username);
  const entry = await findSuppression(tx, ownerUserId, key);
  if (entry) {
    return {
      code: 'suppressed',
      reason: `u/${username} ${onTheList(entry.reason)}`,
    };
  }
  if (await hasRepliedInWorkspace(tx, ownerUserId, key)) {
    return { code: 'replied', reason: alreadyAnswered(username) };
  }
  return null;
}

export async function listDoNotContact(
  ctx: AppContext,
  ownerUserId: string,
  query: TPageQuery & { search?: string | undefined },
): Promise<TDoNotContactList> {
  const { rows, total } = await listSuppressions(ctx.db, ownerUserId, query);
  return { items: rows.map(presentSuppression), total, limit: query.limit, offset: query.offset };
}

/** Adds names (deduplicated, first spelling wins) and tells which were new and which were listed. */
async function addNames(
  ctx: AppContext,
  ownerUserId: string,
  usernames: string[],
  reason: 'manual' | 'import',
  note: string | null,
): Promise<{ added: string[]; alreadyListed: string[] }> {
  const unique = new Map<string, string>();
  const duplicates: string[] = [];
  for (const name of usernames) {
    if (unique.has(usernameKey(name))) duplicates.push(name);
    else unique.set(usernameKey(name), name);
  }
  const entries: NewSuppression[] = [...unique.values()].map((username) => ({ username, reason, note }));
  const at = new Date(ctx.clock.now());
  const inserted = new Set<string>();
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < entries.length; i += IMPORT_CHUNK) {
      const keys = await insertSuppressions(tx, ownerUserId, entries.slice(i, i + IMPORT_CHUNK), at);
      for (const key of keys) inserted.add(key);
      // What was queued to them stops now, rather than showing Queued until its send refuses it.
      await failQueuedDmsTo(tx, ownerUserId, [...keys], onTheList(reason), at);
    }
  });
  const added = entries.filter((e) => inserted.has(usernameKey(e.username))).map((e) => e.username);
  const alreadyListed = [
    ...entries.filter((e) => !inserted.has(usernameKey(e.username))).map((e) => e.username),
    ...duplicates,
  ];
  return { added, alreadyListed };
}

export async function addDoNotContact(
  ctx: AppContext,
  ownerUserId: string,
  body: { usernames: string[]; note?: string | undefined },
): Promise<TAddDoNotContactResponse> {
  const { added, alreadyListed } = await addNames(
    ctx,
    ownerUserId,
    body.usernames,
    'manual',
    body.note || null,
  );
  return { added, already_listed: alreadyListed };
}

export async function importDoNotContact(
  ctx: AppContext,
  ownerUserId: string,
  body: { csv: string; note?: string | undefined },
): Promise<TImportDoNotContactResponse> {
  const parsed = parseUsernameCsv(body.csv);
  const { added, alreadyListed } = await addNames(
    ctx,
    ownerUserId,
    parsed.names.map((n) => n.username),
    'import',
    body.note || null,
  );
  return {
    added: added.length,
    already_listed: alreadyListed.length,
    invalid_count: parsed.invalid.length,
    invalid: parsed.invalid.slice(0, DO_NOT_CONTACT_INVALID_SHOWN),
  };
}

/**
 * Takes a name off the list; a person who asked not to be contacted, or whom a deleted project contacted,
 * stays on it (409).
 */
export async function removeDoNotContact(
  ctx: AppContext,
  ownerUserId: string,
  username: string,
): Promise<void> {
  const key = usernameKey(username);
  const deleted = await deleteSuppression(ctx.db, ownerUserId, key, PERMANENT_SUPPRESSION_REASONS);
  if (deleted) return;
  const entry = await findSuppression(ctx.db, ownerUserId, key);
  if (!entry) throw notListed();
  const why =
    entry.reason === 'contacted'
      ? 'was already contacted from this workspace'
      : 'asked not to be contacted again';
  throw new AppError(
    409,
    'permanent_suppression',
    `u/${entry.username} ${why}, so they stay on the do-not-contact list.`,
  );
}
