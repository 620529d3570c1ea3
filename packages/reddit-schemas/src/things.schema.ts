import { z } from 'zod';
import { zRedditListing, zRedditThing } from './listing.schema';

/*
 * Loose objects: Reddit sends a hundred fields and adds more; only the ones the product reads are
 * declared, each with the nullability the recorded answers show.
 */

/** t3: a post. `author_fullname` is missing on posts of deleted accounts and in older answers. */
export const ZRedditPost = z.looseObject({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  selftext: z.string(),
  author: z.string(),
  author_fullname: z.string().optional(),
  subreddit: z.string(),
  created_utc: z.number(),
  score: z.number(),
  num_comments: z.number(),
  permalink: z.string(),
  url: z.string(),
  over_18: z.boolean(),
  stickied: z.boolean(),
});
export type TRedditPost = z.infer<typeof ZRedditPost>;

/**
 * t1: a comment. `link_title` comes with comment listings, not with every answer; `permalink` is
 * missing from older answers (it can be built from `link_id` and `id`).
 */
export const ZRedditComment = z.looseObject({
  id: z.string(),
  name: z.string(),
  body: z.string(),
  author: z.string(),
  author_fullname: z.string().optional(),
  subreddit: z.string(),
  link_id: z.string(),
  parent_id: z.string(),
  created_utc: z.number(),
  score: z.number(),
  link_title: z.string().optional(),
  permalink: z.string().optional(),
});
export type TRedditComment = z.infer<typeof ZRedditComment>;

/** t5: a subreddit. Private subreddits show neither their members nor whether they are NSFW. */
export const ZRedditSubreddit = z.looseObject({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  title: z.string(),
  public_description: z.string(),
  subscribers: z.number().nullable(),
  over18: z.boolean().nullable(),
  subreddit_type: z.string(),
  created_utc: z.number(),
  url: z.string(),
});
export type TRedditSubreddit = z.infer<typeof ZRedditSubreddit>;

/** t2 of an active account (`/user/{name}/about`); `is_suspended` is often left out when false. */
export const ZRedditActiveUser = z.looseObject({
  id: z.string(),
  name: z.string(),
  created_utc: z.number(),
  comment_karma: z.number(),
  link_karma: z.number(),
  total_karma: z.number().optional(),
  is_suspended: z.literal(false).optional(),
});

/** t2 of a suspended account: only its name and the flag. */
export const ZRedditSuspendedUser = z.looseObject({
  name: z.string(),
  is_suspended: z.literal(true),
});

export const ZRedditUser = z.union([ZRedditActiveUser, ZRedditSuspendedUser]);
export type TRedditUser = z.infer<typeof ZRedditUser>;

/** `/api/v1/me`: the connected account itself, not wrapped in a thing. */
export const ZRedditMe = z.looseObject({
  id: z.string(),
  name: z.string(),
  created_utc: z.number(),
  comment_karma: z.number(),
  link_karma: z.number(),
  total_karma: z.number().optional(),
  is_suspended: z.boolean(),
});
export type TRedditMe = z.infer<typeof ZRedditMe>;

/**
 * t4: a private message (and, in the inbox, a comment reply with the same fields). Chat-era messages
 * have the subject `[direct chat room]`, `type: "unknown"`, and thread by `first_message_name`; threaded
 * boxes nest the later messages of a conversation in `replies`. Messages from moderators and Reddit
 * itself may have no author.
 */
export const ZRedditMessage = z.looseObject({
  id: z.string(),
  name: z.string(),
  author: z.string().nullable(),
  dest: z.string(),
  subject: z.string(),
  body: z.string(),
  created_utc: z.number(),
  first_message_name: z.string().nullable(),
  parent_id: z.string().nullable(),
  new: z.boolean(),
  was_comment: z.boolean(),
  distinguished: z.string().nullable(),
  type: z.string().optional(),
  get replies() {
    return z.union([z.literal(''), zRedditListing(ZRedditMessageThing)]);
  },
});
export type TRedditMessage = z.infer<typeof ZRedditMessage>;

/** A message in a box: t4, or t1 for a comment reply in the inbox. */
export const ZRedditMessageThing = z.looseObject({
  kind: z.enum(['t4', 't1']),
  get data() {
    return ZRedditMessage;
  },
});
export type TRedditMessageThing = z.infer<typeof ZRedditMessageThing>;

export const ZRedditPostThing = zRedditThing('t3', ZRedditPost);
export const ZRedditCommentThing = zRedditThing('t1', ZRedditComment);
export const ZRedditSubredditThing = zRedditThing('t5', ZRedditSubreddit);
export const ZRedditUserThing = zRedditThing('t2', ZRedditUser);

export const ZRedditPostListing = zRedditListing(ZRedditPostThing);
export const ZRedditCommentListing = zRedditListing(ZRedditCommentThing);
export const ZRedditSubredditListing = zRedditListing(ZRedditSubredditThing);
/** `/api/info`: posts and comments by fullname, in one listing. */
export const ZRedditInfoListing = zRedditListing(
  z.discriminatedUnion('kind', [ZRedditPostThing, ZRedditCommentThing]),
);
export const ZRedditMessageListing = zRedditListing(ZRedditMessageThing);

export type TRedditPostThing = z.infer<typeof ZRedditPostThing>;
export type TRedditCommentThing = z.infer<typeof ZRedditCommentThing>;
export type TRedditSubredditThing = z.infer<typeof ZRedditSubredditThing>;
export type TRedditUserThing = z.infer<typeof ZRedditUserThing>;
export type TRedditPostListing = z.infer<typeof ZRedditPostListing>;
export type TRedditCommentListing = z.infer<typeof ZRedditCommentListing>;
export type TRedditSubredditListing = z.infer<typeof ZRedditSubredditListing>;
export type TRedditInfoListing = z.infer<typeof ZRedditInfoListing>;
export type TRedditMessageListing = z.infer<typeof ZRedditMessageListing>;
