import type { TCheckRepliesResult } from '@threadreach/contract';
import type { AppContext } from '../../context';
import { RedditBudgetExhaustedError, RedditUnavailableError } from '../../integrations/reddit';
import { pollInbox, REPLY_WATCH_DAYS } from './poll-inbox.service';
import { accountsThatSentFor } from './replies.repository';

const DAY_MS = 86_400_000;

/** The minute a wait ends, rounded up: "until 11:10" read at 11:10:32 would be over already. */
function clockTime(ms: number): string {
  return `${new Date(Math.ceil(ms / 60_000) * 60_000).toISOString().slice(11, 16)} UTC`;
}

/**
 * "Check for replies": the inbox poll of every account that sent the project's DMs, now, instead of at
 * the next scheduled poll. Polls are idempotent (each reply is stored once), so one running alongside
 * the scheduled job records nothing twice. An account that cannot be read now is reported, not fatal.
 */
export async function checkProjectReplies(ctx: AppContext, projectId: string): Promise<TCheckRepliesResult> {
  const since = new Date(ctx.clock.now() - REPLY_WATCH_DAYS * DAY_MS);
  const result: TCheckRepliesResult = {
    project_id: projectId,
    accounts_checked: 0,
    new_replies: 0,
    refusals: 0,
    not_checked: [],
  };
  for (const account of await accountsThatSentFor(ctx.db, projectId, since)) {
    const name = `u/${account.redditUsername}`;
    const skip = (reason: string) =>
      result.not_checked.push({ account_username: account.redditUsername, reason });
    try {
      const report = await pollInbox(ctx, account.id);
      if (report.skipped === 'auth_required') {
        skip(`${name} must be re-authenticated before its inbox can be read`);
      } else if (report.skipped === null) {
        result.accounts_checked++;
        result.new_replies += report.replies;
        result.refusals += report.refusals;
      }
    } catch (error) {
      if (error instanceof RedditBudgetExhaustedError) {
        skip(`${error.reason} until ${clockTime(error.retryAtMs)}; ${name} is read then`);
      } else if (error instanceof RedditUnavailableError) {
        skip(`Reddit did not answer for ${name}; the next automatic check tries again`);
      } else {
        throw error;
      }
    }
  }
  return result;
}
