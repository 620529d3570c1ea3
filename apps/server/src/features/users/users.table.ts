import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`ARRAY['USER']::text[]`),
    /** The limit in force: the higher of the hand-set base and the best plan that gives access. */
    profilesLimit: integer('profiles_limit').notNull().default(0),
    /** The limit set by hand (demo seed, administrator), kept apart so billing never overwrites it. */
    profilesLimitBase: integer('profiles_limit_base').notNull().default(0),
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_identity_key').on(t.oidcIssuer, t.oidcSubject),
  ],
);
export type UserRow = typeof users.$inferSelect;
