import type { TDmSource, TMessageExample } from '@threadreach/contract';
import pino, { type LoggerOptions } from 'pino';
import { loggerOptions } from '../http/logger';
import type { ProductInput } from './ai.provider';
import type { SubredditInfo } from './subreddit-directory';

/** Test data of the AI module: one product, one source of each kind, a few subreddits, edits. */

export const PRODUCT: ProductInput = {
  product_description:
    'ChurnPilot is a churn analytics tool for subscription software. It connects to Stripe in two clicks and shows MRR, churn rate, failed payments and cohort retention in one dashboard.',
  ideal_client_profile:
    'Founders of bootstrapped SaaS startups and indie hackers who still track MRR and churn in a spreadsheet.',
  call_to_action: 'Try it free for 14 days at churnpilot.io',
  writing_style: 'Friendly, founder to founder, no hard sell.',
};

export const POST: TDmSource = {
  source_type: 'post',
  id: 'abc123',
  title: 'Is there a tool that can track MRR and churn without a spreadsheet?',
  content: 'We are a two-person SaaS and I update a Google Sheet every Monday. It takes hours.',
  author: 'founder_jane',
  subreddit: 'SaaS',
  matched_keywords: ['mrr', 'churn'],
};

export const COMMENT: TDmSource = {
  source_type: 'comment',
  id: 'c9x',
  content: 'Our failed payments doubled after we raised prices, and dunning by hand is killing me.',
  post_title: 'Raised prices, churn went up',
  author: 'saas_sam',
  subreddit: 'startups',
  matched_keywords: ['failed payments'],
};

export const PROFILE: TDmSource = {
  source_type: 'profile',
  id: 'indie_ines',
  reddit_username: 'indie_ines',
  bio_content: 'Indie hacker building a habit tracker. Obsessed with cohort retention charts.',
  matched_keywords: ['cohort retention'],
};

export const SUBREDDITS: SubredditInfo[] = [
  {
    name: 'SaaS',
    title: 'SaaS - Software as a Service',
    publicDescription: 'Discussions and news about SaaS businesses.',
    subscribers: 412000,
  },
  {
    name: 'startups',
    title: 'Startups',
    publicDescription: 'The place to discuss startup problems and solutions.',
    subscribers: 1800000,
  },
  {
    name: 'indiehackers',
    title: 'Indie Hackers',
    publicDescription: 'Makers building profitable online businesses.',
    subscribers: 90000,
  },
  {
    name: 'SaaSFounders',
    title: 'SaaS Founders',
    publicDescription: 'Founders of bootstrapped and funded SaaS companies comparing notes.',
    subscribers: 30000,
  },
  {
    name: 'churn_talk',
    title: 'Churn Talk',
    publicDescription: 'Reducing churn and failed payments in subscription businesses.',
    subscribers: null,
  },
  {
    name: 'Cooking',
    title: 'Cooking',
    publicDescription: 'Share and discuss recipes and cooking techniques.',
    subscribers: 3000000,
  },
  {
    name: 'postprocessing',
    title: 'Post Processing',
    publicDescription: 'Editing and retouching techniques.',
    subscribers: 50000,
  },
];

function example(final_message: string, i: number): TMessageExample {
  return {
    project_id: 'p1',
    example_type: 'user_approved',
    final_message,
    original_generated: 'Hi there, I saw your post and wanted to tell you about ChurnPilot.',
    original_context: { source_type: 'post', source_id: `t3_${i}` },
    post_title: 'Tracking churn',
    post_content: null,
    subreddit: 'SaaS',
  };
}

/** Short, casual edits: what a "brief, informal" customer saves. */
export const BRIEF_INFORMAL = [
  'hey, saw your post about churn. tbh ChurnPilot might help, free trial at churnpilot.io',
  "Hey! Saw you're fighting failed payments. Built a thing for that, grab a free trial at churnpilot.io :)",
  'yo, your MRR spreadsheet post made me laugh. been there! churnpilot.io is free for 14 days',
  'hey, saw your comment on churn. honestly worth a look: churnpilot.io',
].map(example);

/** Long, polite edits. */
export const DETAILED_FORMAL = [
  'Hello Sarah, I read your post in r/SaaS regarding churn reporting. I am the founder of ChurnPilot, which provides MRR, churn and cohort retention reporting for subscription businesses. It connects to Stripe and requires no spreadsheets. If it would be useful, you may try it free for 14 days at churnpilot.io. Thank you for your time.',
  'Hello James, I noticed your comment regarding failed payments. I would like to mention ChurnPilot, a churn analytics tool designed for subscription software companies. By the way, it recovers failed payments automatically through dunning emails. Should it be of interest, please try it free for 14 days at churnpilot.io. Kind regards.',
  'Dear Alex, I came across your question about tracking MRR. ChurnPilot provides a single dashboard for MRR, churn rate and failed payments, and it connects to Stripe in two clicks. By the way, I would be pleased to assist if you have any questions. You may try it free for 14 days at churnpilot.io. Best regards.',
].map(example);

/** Casual edits that each end with the customer's sign-off, "Cheers, Sam". */
export const SIGNED_OFF = [
  'Hey Tom, saw your post about receipts piling up before tax season. I built LedgerLeaf for exactly that, it turns them into tax-ready reports. Try it free at ledgerleaf.app. Cheers, Sam',
  'Hi Ana, your comment about chasing invoice PDFs rang a bell. LedgerLeaf reads them and sorts your expenses for you. Try it free at ledgerleaf.app. Cheers, Sam',
  'Hey Raj, read your question about bookkeeping as a freelancer. I made LedgerLeaf to keep receipts and invoices in one place. Try it free at ledgerleaf.app. Cheers, Sam',
].map(example);

/** The same edits with the sign-off written on lines of its own: "...ledgerleaf.app.\n\nCheers,\nSam". */
export const SIGNED_OFF_OWN_LINE = SIGNED_OFF.map((e) => ({
  ...e,
  final_message: e.final_message.replace(/ Cheers, Sam$/, '\n\nCheers,\nSam'),
}));

/**
 * Edits that greet with "Hi <name>!", name the product in "I made Ledgerly, ..." and close with
 * "Cheers!": no connective in them, and no more than medium enthusiasm.
 */
export const GREETED_CHEERS = [
  'Hi Maya! Saw your post about juggling invoices across three clients. I made Ledgerly, a simple bookkeeping app for freelancers that tracks invoices and expenses in one place. Try it free at ledgerly.app. Cheers!',
  'Hi Tom! Your comment about tax season stress rang a bell. I made Ledgerly, which sorts receipts and gets your numbers ready for your accountant. You can try it free at ledgerly.app. Cheers!',
  'Hi Priya! Read your question about tracking expenses as a freelancer. I made Ledgerly, and it keeps receipts and invoices together. It is free to try at ledgerly.app. Cheers!',
].map(example);

/** A pino logger configured like the app's, writing JSON lines into memory. */
export function captureLog() {
  const chunks: string[] = [];
  const log = pino(loggerOptions('debug') as LoggerOptions, { write: (chunk: string) => chunks.push(chunk) });
  return {
    log,
    raw: () => chunks.join(''),
    lines: () => chunks.map((c) => JSON.parse(c) as Record<string, unknown>),
  };
}
