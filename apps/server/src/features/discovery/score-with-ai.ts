import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { productInfos } from '../product-info/product-info.table';
import type { MatchedItems } from './match-items';

/**
 * With an LLM configured, the rule-based scores of new matches are replaced by the model's, per project and
 * knowing what the project sells. The offline engine's score is the rules' already, so nothing is asked.
 * The AI engine answers any batch the model cannot with the rules, so a cycle never fails because of it.
 */
export async function scoreWithAi(ctx: AppContext, matched: MatchedItems): Promise<MatchedItems> {
  if (ctx.ai.provider === 'offline' || matched.leads.length === 0) return matched;
  const items = new Map(matched.items.map((i) => [i.name, i]));
  const projectIds = [...new Set(matched.leads.map((l) => l.projectId))];
  const rows = await ctx.db.select().from(productInfos).where(inArray(productInfos.projectId, projectIds));
  const products = new Map(
    rows.map((p) => [
      p.projectId,
      {
        product_description: p.productDescription,
        ideal_client_profile: p.idealClientProfile,
        call_to_action: p.callToAction,
        writing_style: p.writingStyle,
      },
    ]),
  );
  const leads = [...matched.leads];
  for (const projectId of projectIds) {
    const indexes = leads.flatMap((lead, i) => (lead.projectId === projectId ? [i] : []));
    const scores = await ctx.ai.scoreIntents({
      product: products.get(projectId) ?? null,
      items: indexes.map((i) => {
        const lead = leads[i]!;
        const item = items.get(lead.itemName);
        // A comment's stored title is its post's: the comment itself has none.
        return {
          id: lead.itemName,
          title: item && item.kind === 't3' ? (item.title ?? '') : '',
          body: item?.body ?? '',
          matches: lead.matches,
        };
      }),
    });
    indexes.forEach((i, k) => {
      const score = scores[k];
      if (score) leads[i] = { ...leads[i]!, intentScore: score.score, intentReasons: score.reasons };
    });
  }
  return { items: matched.items, leads };
}
