import { eq, sql } from 'drizzle-orm';
import type { TProductInfoFields } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { productInfos, type ProductInfoRow } from './product-info.table';

export async function findProductInfo(db: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await db.select().from(productInfos).where(eq(productInfos.projectId, projectId)).limit(1);
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
