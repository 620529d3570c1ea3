import type { TCampaignStatistics, THistoryItem } from '@threadreach/contract';
import { PROJECT_ID, uuid } from '../../test/discovery.test-support';

export function buildCampaignStatistics(overrides: Partial<TCampaignStatistics> = {}): TCampaignStatistics {
  return {
    project_id: PROJECT_ID,
    generated: 0,
    sent: 0,
    failed: 0,
    expired: 0,
    pending: 0,
    replied: 0,
    refused: 0,
    reply_rate: 0,
    ...overrides,
  };
}

export function buildHistoryItem(overrides: Partial<THistoryItem> = {}): THistoryItem {
  return {
    dm_id: uuid(),
    recipient_username: 'pixel_pat',
    sent_at: '2030-01-01T00:00:00Z',
    account_username: 'demo_founder',
    subject: 'About your post',
    message_content: 'Hi Pat, saw your post about invoices. Our app exports tax reports as CSV.',
    source_type: 'post',
    subreddit: 'freelance',
    post_title: 'Looking for a bookkeeping app',
    reply_status: 'no_reply',
    reply_count: 0,
    last_reply: null,
    ...overrides,
  };
}
