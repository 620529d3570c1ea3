import type { TDmDraft, TDmSource } from '@threadreach/contract';

/** Who receives a DM about this source. */
export function recipientOf(source: TDmSource): string {
  return source.source_type === 'profile' ? source.reddit_username : source.author;
}

/** The DM message fields of spec section 3 that a draft carries, around its text. */
export function toDraft(source: TDmSource, message: string, variant: number): TDmDraft {
  const base = {
    message_content: message,
    recipient_username: recipientOf(source),
    matched_keywords: source.matched_keywords,
    variant,
  };
  switch (source.source_type) {
    case 'post':
      return {
        ...base,
        reddit_post_id: source.id,
        post_title: source.title,
        comment_content: null,
        subreddit: source.subreddit,
      };
    case 'comment':
      return {
        ...base,
        reddit_post_id: `comment_${source.id}`,
        post_title: source.post_title || null,
        comment_content: source.content,
        subreddit: source.subreddit,
      };
    case 'profile':
      return {
        ...base,
        reddit_post_id: `profile_${source.id}`,
        post_title: null,
        comment_content: null,
        subreddit: null,
      };
  }
}
