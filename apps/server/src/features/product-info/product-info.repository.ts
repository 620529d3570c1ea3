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

export async function upsertProductInfo(
  db: Db,
  projectId: string,
  fields: TProductInfoFields,
): Promise<ProductInfoRow> {
  const values = {
    productDescription: fields.product_description,
    idealClientProfile: fields.ideal_client_profile,
    callToAction: fields.call_to_action,
    writingStyle: fields.writing_style,
  };
  const rows = await db
    .insert(productInfos)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: productInfos.projectId, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  return rows[0]!;
}
