import type { DbOrTx } from './client';

const cache = new WeakMap<DbOrTx, Map<string, unknown>>();

/**
 * A query built and prepared once per database handle, for the reads every page makes (the project
 * scope, project lists, /me). Building a Drizzle query costs about as much as running a small one, and on
 * PostgreSQL a named statement is parsed and planned once per connection. Values go in as placeholders
 * (`sql.placeholder`) at execution. A transaction is its own handle, so its statements run inside it.
 * `name` is the statement's name on PostgreSQL: one name, one query text.
 */
export function prepared<T>(db: DbOrTx, name: string, build: (db: DbOrTx, name: string) => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build(db, name);
    statements.set(name, statement);
  }
  return statement;
}
