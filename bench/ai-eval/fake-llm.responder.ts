import type { TDmSource, TKeywordSuggestion } from '@threadreach/contract';
import type { FakeAnswer, FakeChatRequest } from '../../apps/server/src/ai/llm/fake-openai.server';
import { promptOf } from '../../apps/server/src/ai/llm/fake-openai.server';
import { readInputBlock } from '../../apps/server/src/ai/llm/prompts';
import { composeDm } from '../../apps/server/src/ai/offline/dm-composer';
import { extractKeywords } from '../../apps/server/src/ai/offline/keywords';
import { scoreCandidates } from '../../apps/server/src/ai/offline/subreddits';
import type { WritingTargets } from '../../apps/server/src/ai/patterns/apply-patterns';

/**
 * The "model" behind the harness's local OpenAI-compatible server when no LLM_BASE_URL is set: it reads
 * the JSON input of each prompt and answers with the offline engine, plus one invented subreddit name
 * per ranking (which the provider must drop). Its figures measure the LLM plumbing (prompts, HTTP,
 * structured output, validation, existence checks), not the quality of any model.
 */
export const INVENTED_SUBREDDIT = 'ZzInventedByTheModel';

interface KeywordsInput {
  product_description: string;
  ideal_client_profile: string;
}
interface SubredditsInput extends KeywordsInput {
  keywords: TKeywordSuggestion[];
  candidates: { name: string; title: string; description: string; members: number | null }[];
}
interface DmInput {
  product: { description: string; ideal_client_profile: string; call_to_action: string };
  source: TDmSource;
  writing_targets: WritingTargets;
  previous_draft?: string;
}

export function offlineBackedAnswer(request: FakeChatRequest): FakeAnswer {
  const op = request.response_format?.json_schema?.name;
  const input = readInputBlock(promptOf(request));
  switch (op) {
    case 'keywords': {
      const k = extractKeywords(input as KeywordsInput);
      return {
        content: JSON.stringify({
          product_keywords: k.filter((x) => x.type === 'product').map((x) => x.keyword),
          icp_keywords: k.filter((x) => x.type === 'icp').map((x) => x.keyword),
        }),
      };
    }
    case 'subreddits': {
      const i = input as SubredditsInput;
      const candidates = i.candidates.map((c) => ({
        info: { name: c.name, title: c.title, publicDescription: c.description, subscribers: c.members },
        queries: [],
      }));
      const ranked = scoreCandidates(candidates, i.keywords, 1)
        .filter((s) => s.score >= 0.3)
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((s) => ({
          name: s.info.name,
          relevance_score: Math.min(1, s.score + 0.1),
          reason: `Mentions ${s.matched.slice(0, 2).join(', ')}`,
        }));
      const invented = { name: INVENTED_SUBREDDIT, relevance_score: 0.95, reason: 'Sounds right.' };
      return { content: JSON.stringify({ subreddits: [invented, ...ranked] }) };
    }
    case 'dm':
    case 'regenerate_dm': {
      const i = input as DmInput;
      const message = composeDm(
        {
          product: {
            product_description: i.product.description,
            ideal_client_profile: i.product.ideal_client_profile,
            call_to_action: i.product.call_to_action,
            writing_style: '',
          },
          source: i.source,
          patterns: null,
          variant: request.seed ?? 0,
          previous: i.previous_draft ?? null,
        },
        i.writing_targets,
      );
      return { content: JSON.stringify({ message }) };
    }
    default:
      return { status: 400, message: `unknown operation ${op}` };
  }
}
