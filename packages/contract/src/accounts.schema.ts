import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText, ZUuid } from './common.schema';

/**
 * The capacity reason of an account that only its working hours hold back: Send All and the agent wait
 * for them, a DM sent with Send goes now. The panel tells the two apart by it.
 */
export const OUTSIDE_WORKING_HOURS_REASON = 'Outside working hours.';

/** Each connected account sends up to this many messages a day (spec section 9). */
export const ACCOUNT_DAILY_MESSAGE_LIMIT = 10;
/** Reddit accounts younger than this cannot send (spec sections 5 and 9). */
export const ACCOUNT_MIN_AGE_DAYS = 7;
/** Bounds of the delay between two messages of one account, in seconds (spec sections 5 and 9). */
export const ACCOUNT_DELAY_MIN_SECONDS = 10;
export const ACCOUNT_DELAY_MAX_SECONDS = 3600;

/** The time zones an account's working hours can be set in (spec section 5). */
export const ACCOUNT_TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Tokyo',
] as const;
export type TAccountTimezone = (typeof ACCOUNT_TIMEZONES)[number];

/** Texts of spec sections 5 and 8. */
export const SELECT_PROJECT_FIRST = 'Please select a project first';
export const CONNECT_ACCOUNT_FIRST = 'Please connect your Reddit account first';
export const ACCOUNT_TOO_YOUNG = 'Your Reddit account must be at least 7 days old to send DMs';
export const ACCOUNT_LIMIT_REACHED = 'Limit Reached';
export const REMOVE_ACCOUNT_FAILED = 'Error removing Reddit account';
export const SAVE_ACCOUNT_SETTINGS_FAILED = 'Failed to save account settings';
export const CONNECT_REDDIT_FAILED = 'Error connecting to Reddit';
export const redditAuthFailedMessage = (message: string) => `Reddit authentication failed: ${message}`;

/** Why connecting a Reddit account failed, as the server's callback puts it in the app's address. */
export const REDDIT_CALLBACK_ERRORS = {
  denied: 'Access was denied on Reddit.',
  notAuthorized: 'Reddit did not authorize the connection.',
  stateInvalid: 'This sign-in has expired or was already used. Please connect again.',
  refused: 'Reddit did not accept the sign-in. Please connect again.',
  unreachable: 'Reddit could not be reached. Please try again.',
  notPermanent: 'Reddit did not grant lasting access. Please connect again.',
  removed: 'This account was removed in the meantime. Please connect it again.',
  failed: 'The account could not be connected. Please try again.',
} as const;

export const connectedElsewhereDetail = (username: string) =>
  `u/${username} is connected in another workspace, and a Reddit account sends for one workspace only. ` +
  'Remove it there first, or sign in to Reddit as another account.';
export const wrongRedditAccountDetail = (signedIn: string, expected: string) =>
  `You signed in as u/${signedIn}, not u/${expected}. Sign in as u/${expected} to re-authenticate it.`;
const NO_PLAN_LIMIT_TEXT = `${ACCOUNT_LIMIT_REACHED}: an active subscription is needed to connect Reddit accounts.`;
const limitText = (used: string, limit: string) =>
  `${ACCOUNT_LIMIT_REACHED}: ${used} of ${limit} Reddit accounts are connected across your projects. Upgrade your subscription to connect more.`;

export const accountLimitReachedDetail = (used: number, limit: number) =>
  limit <= 0 ? NO_PLAN_LIMIT_TEXT : limitText(String(used), String(limit));

const NAME = '\u0001';
const COUNT = '\u0002';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A text with holes, as a pattern: a Reddit name or a count in each hole, nothing else around it. */
const shaped = (text: string) =>
  new RegExp(`^${escapeRegExp(text).replaceAll(NAME, '[A-Za-z0-9_-]{1,20}').replaceAll(COUNT, '\\d{1,6}')}$`);
const CALLBACK_MESSAGES: readonly RegExp[] = [
  shaped(connectedElsewhereDetail(NAME)),
  shaped(wrongRedditAccountDetail(NAME, NAME)),
  shaped(limitText(COUNT, COUNT)),
];
const CALLBACK_TEXTS = new Set<string>([...Object.values(REDDIT_CALLBACK_ERRORS), NO_PLAN_LIMIT_TEXT]);

/**
 * Whether `message` is one the server's Reddit callback sends. Anyone can put `auth=error&message=…` in a
 * link to the app, which would show their words as the app's: others are not shown.
 */
export function isRedditCallbackMessage(message: string): boolean {
  return CALLBACK_TEXTS.has(message) || CALLBACK_MESSAGES.some((pattern) => pattern.test(message));
}

/** valid: the grant works; expired: Reddit refused it; revoked: it was given up. Anything but valid is Auth Required. */
export const ACCOUNT_AUTH_STATUSES = ['valid', 'expired', 'revoked'] as const;
export const ZAccountAuthStatusValue = z.enum(ACCOUNT_AUTH_STATUSES);
export type TAccountAuthStatusValue = z.infer<typeof ZAccountAuthStatusValue>;

/** What spec section 3 calls "Capacity info": whether and when the account can send its next message. */
export const ZAccountCapacity = z.object({
  has_authentication: z.boolean(),
  tokens_expired: z.boolean(),
  /** Messages it may still send today. */
  remaining_capacity: z.number().int().min(0),
  can_send_now: z.boolean(),
  /** Seconds until next_available_at; 0 when it can send now or no time is known. */
  wait_seconds: z.number().int().min(0),
  /** When it can send next: after its pacing delay, inside its working hours and days, with quota left. */
  next_available_at: ZIsoDateTime.nullable(),
  /** Why it cannot send now, in words; null when it can. */
  reason: z.string().nullable(),
});
export type TAccountCapacity = z.infer<typeof ZAccountCapacity>;

/** A Reddit account connected to a project (spec section 3 "Connected account"). */
export const ZConnectedAccount = z
  .object({
    id: z.string(),
    project_id: z.string(),
    reddit_username: z.string(),
    account_display_name: z.string(),
    /** Null until Reddit told the account's creation date. */
    account_age_days: z.number().int().nullable(),
    comment_karma: z.number().int(),
    link_karma: z.number().int(),
    is_active: z.boolean(),
    auth_status: ZAccountAuthStatusValue,
    /** Why the account does not send although it is connected (e.g. suspended by Reddit). */
    disabled_reason: z.string().nullable(),
    daily_message_limit: z.number().int(),
    remaining_today: z.number().int().min(0),
    /** DMs queued to go from it (Send All, a Send that waits, the agent); not those already claimed. */
    queued_sends: z.number().int().min(0),
    connected_at: ZIsoDateTime,
    auth_checked_at: ZIsoDateTime.nullable(),
    capacity: ZAccountCapacity,
  })
  .meta({ id: 'ConnectedAccount' });
export type TConnectedAccount = z.infer<typeof ZConnectedAccount>;

/**
 * Whether the caller may connect another account to this project: customers up to their profiles_limit
 * of accounts over all their projects; moderators and admins without limit (`limit` null).
 */
export const ZAccountConnectLimit = z.object({
  used: z.number().int().min(0),
  limit: z.number().int().nullable(),
  /** 'Limit Reached' with the figures when another account cannot be connected; null when it can. */
  blocked_reason: z.string().nullable(),
});
export type TAccountConnectLimit = z.infer<typeof ZAccountConnectLimit>;

export const ZAccountListQuery = ZPageQuery;
export const ZAccountList = ZPage(ZConnectedAccount).extend({ connect_limit: ZAccountConnectLimit });
export type TAccountList = z.infer<typeof ZAccountList>;

/** One account's readiness to send, as accounts-auth-status lists it (spec section 7: accounts with wait_seconds). */
export const ZAccountAuthStatus = z
  .object({
    id: z.string(),
    reddit_username: z.string(),
    auth_status: ZAccountAuthStatusValue,
    is_active: z.boolean(),
    ...ZAccountCapacity.shape,
  })
  .meta({ id: 'AccountAuthStatus' });
export type TAccountAuthStatus = z.infer<typeof ZAccountAuthStatus>;
/** GET accounts-auth-status: the spec names its list `accounts` (section 7), with the page it is. */
export const ZAccountAuthStatusList = z.object({
  accounts: z.array(ZAccountAuthStatus),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TAccountAuthStatusList = z.infer<typeof ZAccountAuthStatusList>;

export const ZAccountParams = z.object({ projectId: ZUuid, accountId: ZUuid });
export const ZAccountSettingsParams = z.object({ accountId: ZUuid });

/**
 * Starting a Reddit sign-in for a project (spec section 7). The spec's user_id is not read: the account
 * belongs to the project's owner, and the project scope has already checked the caller.
 */
export const ZRedditLoginQuery = z.object({
  project_id: ZUuid,
  additional_account: z.stringbool({ error: 'additional_account must be true or false' }).optional(),
});
export type TRedditLoginQuery = z.input<typeof ZRedditLoginQuery>;

export const ZRedditLoginResponse = z.object({ auth_url: z.string() });
export type TRedditLoginResponse = z.infer<typeof ZRedditLoginResponse>;

/** Reddit's redirect back; every parameter is text anyone can put in a link. */
export const ZRedditCallbackQuery = z.looseObject({
  code: ZText().max(500).optional(),
  state: ZText().max(200).optional(),
  error: ZText().max(200).optional(),
});

/** Where the callback sends the browser: the app's root with these parameters (spec section 2). */
export const REDDIT_AUTH_RETURN_PARAMS = ['auth', 'username', 'project_id', 'message'] as const;

const delay = (name: string) =>
  z
    .number({ error: `${name} must be a whole number of seconds` })
    .int({ error: `${name} must be a whole number of seconds` })
    .min(ACCOUNT_DELAY_MIN_SECONDS, {
      error: `${name} must be between ${ACCOUNT_DELAY_MIN_SECONDS} and ${ACCOUNT_DELAY_MAX_SECONDS} seconds`,
    })
    .max(ACCOUNT_DELAY_MAX_SECONDS, {
      error: `${name} must be between ${ACCOUNT_DELAY_MIN_SECONDS} and ${ACCOUNT_DELAY_MAX_SECONDS} seconds`,
    });

const hour = (name: string) =>
  z
    .number({ error: `${name} must be an hour from 0 to 23` })
    .int({ error: `${name} must be an hour from 0 to 23` })
    .min(0, { error: `${name} must be an hour from 0 to 23` })
    .max(23, { error: `${name} must be an hour from 0 to 23` });

const ZWorkingDays = z
  .array(
    z
      .number()
      .int({ error: 'working_days must be days 1 (Monday) to 7 (Sunday)' })
      .min(1, { error: 'working_days must be days 1 (Monday) to 7 (Sunday)' })
      .max(7, { error: 'working_days must be days 1 (Monday) to 7 (Sunday)' }),
    { error: 'working_days must be a list of days 1 (Monday) to 7 (Sunday)' },
  )
  .min(1, { error: 'Select at least one working day' })
  .max(7, { error: 'working_days must be days 1 (Monday) to 7 (Sunday)' })
  .refine((days) => new Set(days).size === days.length, { error: 'working_days must not repeat a day' });

const settingsFields = {
  delay_range_min: delay('delay_range_min'),
  delay_range_max: delay('delay_range_max'),
  working_days: ZWorkingDays,
  /** Sending starts at this local hour... */
  working_hours_start: hour('working_hours_start'),
  /** ...and stops at this one (exclusive); a start after the end spans midnight, equal hours the whole day. */
  working_hours_end: hour('working_hours_end'),
  timezone: z.enum(ACCOUNT_TIMEZONES, { error: `timezone must be one of ${ACCOUNT_TIMEZONES.join(', ')}` }),
};

const DELAY_ORDER = 'delay_range_min must not be greater than delay_range_max';

/** How one account paces its messages (spec section 3 "Account sending settings"). */
export const ZAccountSettings = z
  .object({ account_id: z.string(), ...settingsFields })
  .meta({ id: 'AccountSettings' });
export type TAccountSettings = z.infer<typeof ZAccountSettings>;

/**
 * The settings to change; fields left out keep their value, and min must not exceed max afterwards. The
 * settings as GET answers them may be sent back whole: their account_id is not read.
 */
export const ZUpdateAccountSettingsRequest = z
  .object({
    account_id: z.string().max(100).optional(),
    delay_range_min: settingsFields.delay_range_min.optional(),
    delay_range_max: settingsFields.delay_range_max.optional(),
    working_days: settingsFields.working_days.optional(),
    working_hours_start: settingsFields.working_hours_start.optional(),
    working_hours_end: settingsFields.working_hours_end.optional(),
    timezone: settingsFields.timezone.optional(),
  })
  .refine(
    (s) =>
      s.delay_range_min === undefined ||
      s.delay_range_max === undefined ||
      s.delay_range_min <= s.delay_range_max,
    { error: DELAY_ORDER, path: ['delay_range_max'] },
  );
export type TUpdateAccountSettingsRequest = z.input<typeof ZUpdateAccountSettingsRequest>;
export const ACCOUNT_DELAY_ORDER_ERROR = DELAY_ORDER;

/** Spec section 3's defaults, which a newly connected account starts with. */
export const DEFAULT_ACCOUNT_SETTINGS = {
  delay_range_min: 30,
  delay_range_max: 120,
  working_days: [1, 2, 3, 4, 5],
  working_hours_start: 9,
  working_hours_end: 17,
  timezone: 'UTC',
} as const satisfies Omit<TAccountSettings, 'account_id'>;
