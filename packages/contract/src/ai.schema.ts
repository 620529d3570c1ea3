import { z } from 'zod';

/** DM text limits (spec sections 5 and 9). */
export const DM_MAX_LENGTH = 400;
export const DM_WARN_LENGTH = 380;

/**
 * A DM's length as its reader counts characters: by code point, so an emoji is one, not the two UTF-16
 * units of String.length. zod's `.max()` on the server counts the same way; the web counter uses this.
 */
export function dmLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
/** Learning needs this many saved edits (spec sections 4, 5 and 9). */
export const LEARNING_MIN_EXAMPLES = 3;
/** The patterns viewer shows at most this many transition phrases (spec section 9). */
export const TRANSITION_PHRASES_MAX = 5;

export const ZKeywordType = z.enum(['product', 'icp']);
export type TKeywordType = z.infer<typeof ZKeywordType>;

/** A keyword the AI engine proposes for step 2, before it is stored. */
export const ZKeywordSuggestion = z
  .object({
    keyword: z.string().trim().min(2).max(80),
    type: ZKeywordType,
  })
  .meta({ id: 'KeywordSuggestion' });
export type TKeywordSuggestion = z.infer<typeof ZKeywordSuggestion>;

/** A stored keyword of a project (spec section 3). */
export const ZKeyword = ZKeywordSuggestion.extend({
  id: z.string(),
  approved: z.boolean(),
}).meta({ id: 'Keyword' });
export type TKeyword = z.infer<typeof ZKeyword>;

/** Reddit's subreddit names: letters, digits and underscores, without the r/ prefix. */
export const ZSubredditName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/, { error: 'Subreddit names are 2-21 letters, digits or _' });

/** A subreddit the AI engine proposes for step 3: it exists, and the reason says why it fits. */
export const ZSubredditSuggestion = z
  .object({
    subreddit_name: ZSubredditName,
    description: z.string(),
    estimated_members: z.number().int().min(0),
    relevance_score: z.number().min(0).max(1),
    reason: z.string(),
  })
  .meta({ id: 'SubredditSuggestion' });
export type TSubredditSuggestion = z.infer<typeof ZSubredditSuggestion>;

/** A stored subreddit of a project (spec section 3). */
export const ZSubreddit = z
  .object({
    id: z.string(),
    subreddit_name: ZSubredditName,
    description: z.string(),
    estimated_members: z.number().int().min(0),
    relevance_score: z.number().min(0).max(1),
    approved: z.boolean(),
  })
  .meta({ id: 'Subreddit' });
export type TSubreddit = z.infer<typeof ZSubreddit>;

export const ZDmSourceType = z.enum(['post', 'comment', 'profile']);
export type TDmSourceType = z.infer<typeof ZDmSourceType>;

const ZMatchedKeywords = z.array(z.string()).default([]);

/** What a DM answers: a found post, comment or profile, with the fields of spec section 3 it needs. */
export const ZDmSource = z.discriminatedUnion('source_type', [
  z.object({
    source_type: z.literal('post'),
    id: z.string().min(1),
    title: z.string(),
    content: z.string().default(''),
    author: z.string().min(1),
    subreddit: z.string().min(1),
    matched_keywords: ZMatchedKeywords,
  }),
  z.object({
    source_type: z.literal('comment'),
    id: z.string().min(1),
    content: z.string(),
    post_title: z.string().default(''),
    author: z.string().min(1),
    subreddit: z.string().min(1),
    matched_keywords: ZMatchedKeywords,
  }),
  z.object({
    source_type: z.literal('profile'),
    id: z.string().min(1),
    reddit_username: z.string().min(1),
    bio_content: z.string(),
    matched_keywords: ZMatchedKeywords,
  }),
]);
export type TDmSource = z.infer<typeof ZDmSource>;
export type TDmSourceInput = z.input<typeof ZDmSource>;

/**
 * A DM the AI engine wrote, with the DM message fields of spec section 3 that describe its source.
 * `reddit_post_id` is the post id, or `comment_<id>` / `profile_<id>` for the other sources.
 * `variant` counts regenerations: 0 for the first draft.
 */
export const ZDmDraft = z
  .object({
    message_content: z.string().min(1).max(DM_MAX_LENGTH),
    recipient_username: z.string().min(1),
    reddit_post_id: z.string().min(1),
    post_title: z.string().nullable(),
    comment_content: z.string().nullable(),
    subreddit: z.string().nullable(),
    matched_keywords: z.array(z.string()),
    variant: z.number().int().min(0),
  })
  .meta({ id: 'DmDraft' });
export type TDmDraft = z.infer<typeof ZDmDraft>;

/** A DM the customer edited and saved: the training data of agent mode (spec section 3). */
export const ZMessageExample = z
  .object({
    project_id: z.string(),
    example_type: z.literal('user_approved'),
    final_message: z.string().trim().min(1).max(DM_MAX_LENGTH),
    original_generated: z.string(),
    original_context: z.object({ source_type: ZDmSourceType, source_id: z.string() }),
    post_title: z.string().nullable(),
    post_content: z.string().nullable(),
    subreddit: z.string().nullable(),
  })
  .meta({ id: 'MessageExample' });
export type TMessageExample = z.infer<typeof ZMessageExample>;

const ZConfidence = z.number().min(0).max(1);
const ZSampleSize = z.number().int().min(0);

export const ZSentencePosition = z.enum(['opening', 'body', 'closing']);
export type TSentencePosition = z.infer<typeof ZSentencePosition>;
export const ZSentenceType = z.enum([
  'greeting',
  'reference',
  'question',
  'offer',
  'call_to_action',
  'sign_off',
  'statement',
]);
export type TSentenceType = z.infer<typeof ZSentenceType>;

export const ZBrevityLevel = z.enum(['very_brief', 'brief', 'moderate', 'detailed']);
export type TBrevityLevel = z.infer<typeof ZBrevityLevel>;
export const ZTone = z.enum(['casual', 'friendly', 'professional', 'enthusiastic', 'empathetic']);
export type TTone = z.infer<typeof ZTone>;
export const ZEnthusiasmLevel = z.enum(['low', 'medium', 'high']);
export type TEnthusiasmLevel = z.infer<typeof ZEnthusiasmLevel>;

/** What agent mode learned from the customer's saved edits (spec section 3). */
export const ZLearningPatterns = z
  .object({
    structure: z.object({
      /** Typical message length in characters. */
      preferred_length: z.number().int().min(0).max(DM_MAX_LENGTH),
      avg_sentence_count: z.number().min(0),
      sentence_patterns: z.array(
        z.object({
          position: ZSentencePosition,
          type: ZSentenceType,
          description: z.string(),
          /** Share of the examples with this sentence, 0-1. */
          frequency: z.number().min(0).max(1),
        }),
      ),
      confidence: ZConfidence,
      sample_size: ZSampleSize,
    }),
    style: z.object({
      brevity_level: ZBrevityLevel,
      transition_phrases: z.array(z.string()).max(TRANSITION_PHRASES_MAX),
      confidence: ZConfidence,
      sample_size: ZSampleSize,
    }),
    tone: z.object({
      dominant_tone: ZTone,
      /** 0 = very casual, 1 = very formal. */
      formality_score: z.number().min(0).max(1),
      enthusiasm_level: ZEnthusiasmLevel,
      confidence: ZConfidence,
      sample_size: ZSampleSize,
    }),
  })
  .meta({ id: 'LearningPatterns' });
export type TLearningPatterns = z.infer<typeof ZLearningPatterns>;
