import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Database } from '../../db/client';
import { openTestDatabase } from '../../test/test-app';
import {
  countAnswered,
  countByAccount,
  countByDay,
  countBySubreddit,
  type TimeRange,
} from './statistics.repository';

/**
 * Statistics are counted through indexes, never by reading whole tables: each query is planned with
 * sequential scans switched off, which the planner still falls back to when no index fits.
 */
interface Captured {
  db: Db;
  queries: { sql: string; params: unknown[] }[];
  explain(sql: string, params: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

async function capturing(database: Database): Promise<Captured> {
  const queries: Captured['queries'] = [];
  const logger = { logQuery: (sql: string, params: unknown[]) => queries.push({ sql, params }) };
  if (database.pglite) {
    const client = database.pglite;
    await client.exec('set enable_seqscan = off');
    return {
      db: drizzlePglite(client, { logger }) as unknown as Db,
      queries,
      explain: async (sql, params) =>
        (await client.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params)).rows.map(
          (r) => r['QUERY PLAN'],
        ),
      close: () => client.exec('reset enable_seqscan').then(() => undefined),
    };
  }
  const client = new pg.Client({ connectionString: database.url! });
  await client.connect();
  await client.query('set enable_seqscan = off');
  return {
    db: drizzlePg(client, { logger }),
    queries,
    explain: async (sql, params) =>
      (await client.query<{ 'QUERY PLAN': string }>({ text: `explain ${sql}`, values: params })).rows.map(
        (r) => r['QUERY PLAN'],
      ),
    close: () => client.end(),
  };
}

/** Tables that grow with what happens: read by a range of their instants, a project's rows or one row. */
const EVENT_TABLES = /\bon (dm_messages|leads|dm_replies|discovery_searches)\b/;

/**
 * The scans of a plan that read a whole event table: sequential scans, and index scans without an index
 * condition (which walk the whole index). Which bounded index the planner takes for a project's counts is
 * its choice by the table's size; on these empty tables it may be any that bounds the project.
 */
function unboundedScans(plan: string[]): string[] {
  const bad: string[] = [];
  plan.forEach((line, i) => {
    if (!line.includes('Scan') || !EVENT_TABLES.test(line) || line.includes('Bitmap Heap Scan')) return;
    if (line.includes('Seq Scan')) return void bad.push(line.trim());
    const node = plan.slice(i + 1).findIndex((next) => next.includes('->'));
    const details = plan.slice(i + 1, node < 0 ? undefined : i + 1 + node);
    const cond = details.find((d) => d.includes('Index Cond:')) ?? '';
    if (!/_at >=|project_id =|dm_id =/.test(cond)) bad.push(line.trim());
  });
  return bad;
}

let database: Database;
let captured: Captured;
const range: TimeRange = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') };
const projectId = '00000000-0000-4000-8000-000000000001';
const otherProjectId = '00000000-0000-4000-8000-000000000002';

beforeAll(async () => {
  database = await openTestDatabase();
  captured = await capturing(database);
});

afterAll(async () => {
  await captured.close();
  await database.close();
});

describe('statistics queries', () => {
  it.each([
    ['daily counts of every project', (db: Db) => countByDay(db, range)],
    ["daily counts of one project's", (db: Db) => countByDay(db, range, projectId)],
    ['answered DMs', (db: Db) => countAnswered(db, projectId, range)],
    ['counts by subreddit', (db: Db) => countBySubreddit(db, [projectId, otherProjectId], range)],
    ['counts by account', (db: Db) => countByAccount(db, [projectId, otherProjectId], range)],
  ])('%s read no event table whole', async (_name, run) => {
    captured.queries.length = 0;
    await run(captured.db);
    expect(captured.queries.length).toBeGreaterThan(0);
    for (const query of captured.queries) {
      const plan = await captured.explain(query.sql, query.params);
      expect(unboundedScans(plan), plan.join('\n')).toEqual([]);
    }
  });
});
