import { plural } from '@threadreach/contract';
import type { AppContext } from '../../context';
import { countProjectAccounts, listSendingAccountLimits, listSignedOutAccounts } from './agent.repository';

/** At most this many signed-out accounts are named; the rest are counted. */
const SIGNED_OUT_NAMED_MAX = 3;

/** The accounts that keep the agent from sending because they are signed out of Reddit, as a text tells it. */
export interface SignedOutAccounts {
  /** 'u/a', 'u/a and u/b', 'u/a, u/b, u/c and 2 other accounts'. */
  names: string;
  one: boolean;
  /** Other accounts are connected (switched off or disabled) and cannot send either. */
  others: boolean;
}

/**
 * The project's switched-on accounts that are signed out of Reddit (Auth Required), when no account of the
 * project can send; null when one can, or when none is signed out (switched off or disabled only: nothing
 * there needs signing in again).
 */
export async function signedOutAccounts(
  ctx: AppContext,
  projectId: string,
): Promise<SignedOutAccounts | null> {
  if ((await listSendingAccountLimits(ctx.db, projectId)).length > 0) return null;
  const signedOut = await listSignedOutAccounts(ctx.db, projectId);
  if (signedOut.length === 0) return null;
  const named = signedOut.slice(0, SIGNED_OUT_NAMED_MAX).map((name) => `u/${name}`);
  const more = signedOut.length - named.length;
  const names =
    more > 0
      ? `${named.join(', ')} and ${plural(more, 'other account')}`
      : named.length > 1
        ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
        : named[0]!;
  const others = (await countProjectAccounts(ctx.db, projectId)) > signedOut.length;
  return { names, one: signedOut.length === 1, others };
}

/** 'u/a needs to be re-authenticated (Auth Required) before it can send DMs. Re-authenticate it in the accounts panel' */
export function reauthenticateFirst({ names, one, others }: SignedOutAccounts): string {
  return (
    `${names} ${one ? 'needs' : 'need'} to be re-authenticated (Auth Required) before ` +
    `${one ? 'it' : 'they'} can send DMs` +
    `${others ? ', and no other Reddit account of this project can send' : ''}. ` +
    `Re-authenticate ${one ? 'it' : 'them'} in the accounts panel`
  );
}
