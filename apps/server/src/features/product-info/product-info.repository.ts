import { eq, sql } from 'drizzle-orm';
import type { TProductInfoFields } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { productInfos, type ProductInfoRow } from './product-info.table';

const ofProject = (db: Db, name: string) =>
  db
    .select()
    .from(productInfos)
    .where(eq(productInfos.projectId, sql.placeholder('projectId')))
    .limit(1)
    .prepare(name);

export async function findProductInfo(db: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await prepared(db, 'product_info_of_project', ofProject).execute({ projectId });
  return rows[0] ?? null;
}

/** The project's product information, locked until the transaction ends (a save checks its version). */
export async function lockProductInfo(tx: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await tx
    .select()
    .from(productInfos)
    .where(eq(productInfos.projectId, projectId))
    .for('update');
  return rows[0] ?? null;
}

/** Saves step 1; with `onlyFirst` only when nothing is saved yet (null otherwise). */
export async function upsertProductInfo(
  db: Db,
  projectId: string,
  fields: TProductInfoFields,
  onlyFirst = false,
): Promise<ProductInfoRow | null> {
  const values = {
    productDescription: fields.product_description,
    idealClientProfile: fields.ideal_client_profile,
    callToAction: fields.call_to_action,
    writingStyle: fields.writing_style,
  };
  const insert = db.insert(productInfos).values({ projectId, ...values });
  const rows = await (
    onlyFirst
      ? insert.onConflictDoNothing({ target: productInfos.projectId })
      : insert.onConflictDoUpdate({
          target: productInfos.projectId,
          set: { ...values, updatedAt: sql`now()` },
        })
  ).returning();
  return rows[0] ?? null;
}
