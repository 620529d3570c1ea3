/** JSON shapes produced by the simulator, matching what Reddit's API returns. */

export interface RedditThing<K extends string, T> {
  kind: K;
  data: T;
}

export interface RedditListing<T, K extends string = string> {
  kind: 'Listing';
  data: {
    after: string | null;
    before: string | null;
    dist: number;
    modhash: string | null;
    geo_filter: string | null;
    children: Array<RedditThing<K, T>>;
  };
}

/** t3 data */
export interface RedditPost {
  id: string;
  name: string;
  title: string;
  selftext: string;
  author: string;
  author_fullname: string;
  subreddit: string;
  subreddit_id: string;
  subreddit_name_prefixed: string;
  subreddit_subscribers: number;
  subreddit_type: 'public';
  score: number;
  ups: number;
  downs: number;
  upvote_ratio: number;
  num_comments: number;
  created: number;
  created_utc: number;
  permalink: string;
  url: string;
  domain: string;
  is_self: boolean;
  over_18: boolean;
  stickied: boolean;
  locked: boolean;
  archived: boolean;
  edited: boolean | number;
  distinguished: string | null;
  link_flair_text: string | null;
  thumbnail: string;
}

/** t1 data */
export interface RedditComment {
  id: string;
  name: string;
  body: string;
  author: string;
  author_fullname: string;
  subreddit: string;
  subreddit_id: string;
  subreddit_name_prefixed: string;
  link_id: string;
  link_title: string;
  link_author: string;
  link_permalink: string;
  parent_id: string;
  score: number;
  ups: number;
  downs: number;
  created: number;
  created_utc: number;
  permalink: string;
  is_submitter: boolean;
  edited: boolean | number;
  distinguished: string | null;
  stickied: boolean;
  replies: '';
}

/** t5 data */
export interface RedditSubreddit {
  id: string;
  name: string;
  display_name: string;
  display_name_prefixed: string;
  title: string;
  public_description: string;
  description: string;
  subscribers: number;
  active_user_count: number;
  over18: boolean;
  created: number;
  created_utc: number;
  url: string;
  subreddit_type: 'public';
  lang: string;
}

/** t2 data (user about and /api/v1/me) */
export interface RedditUser {
  id?: string;
  name: string;
  created?: number;
  created_utc?: number;
  comment_karma?: number;
  link_karma?: number;
  total_karma?: number;
  is_suspended: boolean;
  is_gold?: boolean;
  is_mod?: boolean;
  verified?: boolean;
  has_verified_email?: boolean;
  icon_img?: string;
}

/** t4 data */
export interface RedditMessage {
  id: string;
  name: string;
  author: string;
  dest: string;
  subject: string;
  body: string;
  created: number;
  created_utc: number;
  first_message: number | null;
  first_message_name: string | null;
  parent_id: string | null;
  new: boolean;
  was_comment: boolean;
  subreddit: string | null;
  context: string;
  distinguished: string | null;
  replies: '';
}

export interface RedditAccessTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** Body of POST /api/compose with api_type=json. */
export interface RedditJsonResponse {
  json: {
    errors: Array<[string, string, string]>;
    data?: Record<string, unknown>;
    ratelimit?: number;
  };
}

export type RedditErrorBody = { message: string; error: number; reason?: string };
