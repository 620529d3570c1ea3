import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.table';

export const productInfos = pgTable('product_infos', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  productDescription: text('product_description').notNull(),
  idealClientProfile: text('ideal_client_profile').notNull(),
  callToAction: text('call_to_action').notNull(),
  writingStyle: text('writing_style').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ProductInfoRow = typeof productInfos.$inferSelect;
