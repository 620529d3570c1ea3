import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import type { Clock } from '../../clock';
import { openDatabase, type Db } from '../../db/client';
import { createTestApp, type TestApp, type TestAppOptions } from '../../test/test-app';
import { buildProject, type TestUser } from '../../test/factories';
import type { Config } from '../../config/config';
import type { AppContext } from '../../context';
import { createCredential, redditClientFor } from '../credentials';
import { discoveryFilters, keywords } from '../keywords/keywords.table';
import { leads, profiles } from '../leads/leads.table';
import { projects } from '../projects/projects.table';
import { subreddits } from '../subreddits/subreddits.table';
import { discoveryCursors } from './discovery.table';
import type { StreamKind } from './discovery.repository';
import { fromComment, fromPost, type ListedItem } from './reddit-reader';

/**
 * A database of the test file's own. The discovery cycle reads every project there is, so on a shared
 * PostgreSQL it would touch other suites' projects: with DATABASE_URL each call creates (and `drop`
 * removes) a fresh database on that server; without it, a fresh in-memory PGlite.
 */
export async function isolatedDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const name = `discovery_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  return {
    url: url.toString(),
    // Never WITH (FORCE): killing a connection a closing pool still holds is an uncaught error in the
    // test process. A database still in use is left behind instead; it holds only test rows.
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined),
  };
}

/** The test app (see createTestApp) on a database of its own. */
export async function createDiscoveryApp(options: TestAppOptions = {}): Promise<TestApp> {
  const isolated = await isolatedDatabaseUrl();
  const shared = process.env.DATABASE_URL;
  if (isolated) process.env.DATABASE_URL = isolated.url;
  let t: TestApp;
  try {
    t = await createTestApp(options);
  } finally {
    if (isolated) process.env.DATABASE_URL = shared;
  }
  return {
    ...t,
    async close() {
      await t.close();
      await isolated?.drop();
    },
  };
}

/** An enabled search credential pointed at the test's simulator (which accepts any client). */
export async function addSearchCredential(ctx: AppContext, clientId = `search-${randomUUID().slice(0, 8)}`) {
  return createCredential(ctx, {
    type: 'search',
    account_name: 'threadreach_search',
    client_id: clientId,
    client_secret: `secret-${randomUUID()}`,
    enabled: true,
  });
}

export interface DiscoveryProjectSpec {
  owner?: TestUser;
  keywords?: string[];
  /** Keywords present but not approved. */
  unapprovedKeywords?: string[];
  subreddits?: string[];
  /** false: their first backfill is still to run (default: already done). */
  backfilled?: boolean;
  negativeKeywords?: string[];
  excludedSubreddits?: string[];
  excludedAuthors?: string[];
  withoutKeywords?: boolean;
}

/** A project with approved keywords, approved subreddits and filters, written straight to the tables. */
export async function buildDiscoveryProject(
  db: Db,
  config: Config,
  spec: DiscoveryProjectSpec,
  now = new Date(),
) {
  const project = await buildProject(db, config, spec.owner ? { owner: spec.owner } : {});
  if (spec.withoutKeywords) {
    await db.update(projects).set({ withoutKeywords: true }).where(eq(projects.id, project.id));
  }
  const kw = [
    ...(spec.keywords ?? []).map((k) => ({ keyword: k, approved: true })),
    ...(spec.unapprovedKeywords ?? []).map((k) => ({ keyword: k, approved: false })),
  ];
  if (kw.length > 0) {
    await db.insert(keywords).values(kw.map((k) => ({ projectId: project.id, type: 'product', ...k })));
  }
  await approveSubreddits(db, project.id, spec.subreddits ?? [], now, spec.backfilled ?? true);
  if (spec.negativeKeywords || spec.excludedSubreddits || spec.excludedAuthors) {
    await db.insert(discoveryFilters).values({
      projectId: project.id,
      negativeKeywords: spec.negativeKeywords ?? [],
      excludedSubreddits: spec.excludedSubreddits ?? [],
      excludedAuthors: spec.excludedAuthors ?? [],
    });
  }
  return { ...project, withoutKeywords: spec.withoutKeywords ?? false };
}

export async function approveSubreddits(
  db: Db,
  projectId: string,
  names: string[],
  now: Date,
  backfilled = true,
): Promise<void> {
  if (names.length === 0) return;
  await db.insert(subreddits).values(
    names.map((name) => ({
      projectId,
      name,
      source: 'manual',
      approved: true,
      approvedAt: now,
      backfilledAt: backfilled ? now : null,
    })),
  );
}

export async function unapproveSubreddit(db: Db, projectId: string, name: string): Promise<void> {
  await db
    .update(subreddits)
    .set({ approved: false })
    .where(and(eq(subreddits.projectId, projectId), eq(subreddits.name, name)));
}

export async function leadsOf(db: Db, projectIds: string | string[]) {
  const ids = Array.isArray(projectIds) ? projectIds : [projectIds];
  return db
    .select()
    .from(leads)
    .where(inArray(leads.projectId, ids.length ? ids : [randomUUID()]));
}

export async function profilesOf(db: Db, projectId: string) {
  return db.select().from(profiles).where(eq(profiles.projectId, projectId));
}

export async function cursorsOf(db: Db) {
  return db.select().from(discoveryCursors).orderBy(discoveryCursors.groupNo, discoveryCursors.kind);
}

/** Moves a virtual clock (shared by the app and the simulator) forward. */
export function advance(clock: Clock & { t: number }, ms: number): void {
  clock.t += ms;
}

/**
 * What a listing holds newer than `stopAt` (an item name), newest first, read independently of the
 * cycle through another credential: the reference the cycle's leads are checked against.
 */
export async function listingSince(
  ctx: AppContext,
  credentialId: string,
  kind: StreamKind,
  subs: string[],
  stopAt: string | null,
): Promise<ListedItem[]> {
  const api = (await redditClientFor(ctx, credentialId)).app;
  const items: ListedItem[] = [];
  let after: string | null = null;
  for (let page = 0; page < 10; page++) {
    const listing: { after: string | null; children: { data: unknown }[] } =
      kind === 't3'
        ? (await api.listNew(subs, { limit: 100, after })).data
        : (await api.listComments(subs, { limit: 100, after })).data;
    for (const child of listing.children) {
      const item = kind === 't3' ? fromPost(child.data as never) : fromComment(child.data as never);
      if (item.name === stopAt) return items;
      items.push(item);
    }
    if (!listing.after) return items;
    after = listing.after;
  }
  return items;
}

/** A credential the cycle does not use (type send), for reading reference listings. */
export async function addVerifyingCredential(ctx: AppContext) {
  return createCredential(ctx, {
    type: 'send',
    account_name: 'threadreach_verify',
    client_id: `verify-${randomUUID().slice(0, 8)}`,
    client_secret: `secret-${randomUUID()}`,
    enabled: true,
  });
}
