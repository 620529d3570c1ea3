import { eq, sql } from 'drizzle-orm';
import type { DbOrTx as Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { users, type UserRow } from './users.table';

const byId = (db: Db, name: string) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare(name);

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const rows = await prepared(db, 'user_by_id', byId).execute({ id });
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserByIdentity(db: Db, issuer: string, subject: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`${users.oidcIssuer} = ${issuer} and ${users.oidcSubject} = ${subject}`)
    .limit(1);
  return rows[0] ?? null;
}

export async function insertUser(
  db: Db,
  values: {
    email: string;
    roles?: string[];
    profilesLimit?: number;
    oidcIssuer?: string;
    oidcSubject?: string;
  },
): Promise<UserRow> {
  // A limit given at creation is set by hand (billing never creates users): it is also the base.
  const rows = await db
    .insert(users)
    .values({ ...values, profilesLimitBase: values.profilesLimit ?? 0 })
    .returning();
  return rows[0]!;
}

export async function linkIdentity(db: Db, id: string, issuer: string, subject: string): Promise<UserRow> {
  const rows = await db
    .update(users)
    .set({ oidcIssuer: issuer, oidcSubject: subject, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return rows[0]!;
}

/** Inserts the user unless one with the e-mail exists; roles and limit of an existing user stay as they are. */
export async function ensureUser(
  db: Db,
  values: { email: string; roles: string[]; profilesLimit: number },
): Promise<UserRow> {
  const existing = await findUserByEmail(db, values.email);
  if (existing) return existing;
  await db
    .insert(users)
    .values({ ...values, profilesLimitBase: values.profilesLimit })
    .onConflictDoNothing();
  return (await findUserByEmail(db, values.email))!;
}

/** Sets the user's profiles_limit (billing keeps it at the higher of the hand-set base and the best plan). */
export async function updateProfilesLimit(db: Db, id: string, profilesLimit: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ profilesLimit, updatedAt: sql`now()` })
    .where(sql`${users.id} = ${id} and ${users.profilesLimit} <> ${profilesLimit}`)
    .returning({ id: users.id });
  return rows.length > 0;
}
