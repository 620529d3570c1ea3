import { sql } from 'drizzle-orm';
import type { TMatchReason } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { leads, profiles, type LeadRow } from './leads.table';

export interface NewLead {
  projectId: string;
  itemName: string;
  kind: 'post' | 'comment';
  author: string;
  subreddit: string;
  matchedKeywords: string[];
  matches: TMatchReason[];
  intentScore: number;
  intentReasons: string[];
  itemCreatedAt: Date;
  foundAt: Date;
}

/**
 * Stores matches as leads; a lead the project already has (found before, or dismissed) is left as it is,
 * so a cycle repeated after a crash adds nothing twice. Returns the leads that are new.
 */
export async function insertLeads(tx: DbOrTx, rows: NewLead[]): Promise<LeadRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(leads)
    .values(rows)
    .onConflictDoNothing({ target: [leads.projectId, leads.itemName] })
    .returning();
}

/**
 * The people behind new leads, one row per project and author: keywords merge, the score keeps the best
 * lead's, and `last_found_at` moves on. Dismissed profiles stay dismissed.
 */
export async function upsertProfiles(tx: DbOrTx, newLeads: LeadRow[]): Promise<void> {
  const byPerson = new Map<string, LeadRow[]>();
  for (const lead of newLeads) {
    const key = `${lead.projectId}\u0000${lead.author}`;
    byPerson.set(key, [...(byPerson.get(key) ?? []), lead]);
  }
  const values = [...byPerson.values()].map((group) => {
    const best = group.reduce((a, b) => (b.intentScore > a.intentScore ? b : a));
    const found = group.reduce((a, b) => (b.foundAt > a.foundAt ? b : a)).foundAt;
    return {
      projectId: best.projectId,
      redditUsername: best.author,
      matchedKeywords: [...new Set(group.flatMap((l) => l.matchedKeywords))],
      intentScore: best.intentScore,
      intentReasons: best.intentReasons,
      foundAt: found,
      lastFoundAt: found,
    };
  });
  if (values.length === 0) return;
  await tx
    .insert(profiles)
    .values(values)
    .onConflictDoUpdate({
      target: [profiles.projectId, profiles.redditUsername],
      set: {
        matchedKeywords: sql`coalesce((select array_agg(distinct k) from unnest(${profiles.matchedKeywords} || excluded.matched_keywords) as k), '{}')`,
        intentReasons: sql`case when excluded.intent_score > ${profiles.intentScore} then excluded.intent_reasons else ${profiles.intentReasons} end`,
        intentScore: sql`greatest(${profiles.intentScore}, excluded.intent_score)`,
        lastFoundAt: sql`greatest(${profiles.lastFoundAt}, excluded.last_found_at)`,
      },
    });
}
