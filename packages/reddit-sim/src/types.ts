/**
 * The JSON shapes the simulator produces: Reddit's own, as `@threadreach/reddit-schemas` declares them
 * (the fields the product reads; the simulator sends more, as Reddit does).
 */
import type { TRedditListing, TRedditThing } from '@threadreach/reddit-schemas';

export type {
  TRedditAccessToken as RedditAccessTokenResponse,
  TRedditComment as RedditComment,
  TRedditErrorBody as RedditErrorBody,
  TRedditJsonResponse as RedditJsonResponse,
  TRedditMe as RedditMe,
  TRedditMessage as RedditMessage,
  TRedditPost as RedditPost,
  TRedditSubreddit as RedditSubreddit,
  TRedditUser as RedditUser,
} from '@threadreach/reddit-schemas';

export type RedditThing<K extends string, T> = TRedditThing<K, T>;
export type RedditListing<T, K extends string = string> = TRedditListing<RedditThing<K, T>>;
