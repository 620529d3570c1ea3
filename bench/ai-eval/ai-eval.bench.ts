/**
 * AI quality harness: every engine runs the AI operations for the sample products against the Reddit
 * simulator, through the server's Reddit client, and is scored on hand-labelled answers (products.ts).
 *
 *   npm run bench:ai
 *       offline engine, and the LLM provider against a local fake OpenAI-compatible endpoint
 *       whose answers come from the offline engine (plumbing, not model quality)
 *   LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 [LLM_API_KEY=...] npm run bench:ai
 *       the LLM column uses that endpoint instead
 *
 * Prints a report and writes it to bench/ai-eval/results.md.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TDmSource, TLearningPatterns } from '@threadreach/contract';
import pino from 'pino';
import type { Config } from '../../apps/server/src/config/config';
import { type AiService, createAiService } from '../../apps/server/src/ai/ai.service';
import { checkDm, readabilityIssues } from '../../apps/server/src/ai/dm-checks';
import { startFakeOpenAi } from '../../apps/server/src/ai/llm/fake-openai.server';
import { targetsFor } from '../../apps/server/src/ai/offline/dm-composer';
import { formalityScore, mean } from '../../apps/server/src/ai/patterns/text-metrics';
import { createRedditSubredditDirectory } from '../../apps/server/src/ai/reddit-directory.adapter';
import { startRedditRig } from '../../apps/server/src/integrations/reddit/reddit-test-support';
import { openTestDatabase } from '../../apps/server/src/test/test-app';
import { INVENTED_SUBREDDIT, offlineBackedAnswer } from './fake-llm.responder';
import {
  briefInformalEdits,
  detailedFormalEdits,
  keywordScore,
  pct,
  type PrecisionRecall,
  subredditScore,
  sum,
} from './metrics';
import { SAMPLE_PRODUCTS, type SampleProduct } from './products';
import { simToken, sourcesFrom } from './sim-sources';

const OPS = [
  'generate_keywords',
  'suggest_subreddits',
  'write_dm',
  'regenerate_dm',
  'learn_patterns',
] as const;
type Op = (typeof OPS)[number];

interface ProductResult {
  id: string;
  keywords: PrecisionRecall;
  subreddits: PrecisionRecall;
  suggested: string[];
  dms: {
    ok: number;
    total: number;
    length: number;
    reference: number;
    cta: number;
    spam: number;
    different: number;
    /** No readability issue (dm-checks `readabilityIssues`), greeting checked against the style. */
    readable: number;
  };
  adherence: {
    ok: number;
    total: number;
    length: number;
    formality: number;
    direction: number;
    sources: number;
    /** Written with learned patterns and no readability issue (greeting checked against the targets). */
    readable: number;
  };
  failures: string[];
  /** "post, written: sentence ends on ..." for every draft with a readability issue. */
  readability: string[];
}

interface EngineResult {
  label: string;
  products: ProductResult[];
  ms: Record<Op, number[]>;
  deterministic: boolean | null;
  inventedDropped: boolean | null;
}

const silent = pino({ level: 'silent' });

async function timed<T>(ms: number[], fn: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await fn();
  ms.push(performance.now() - started);
  return result;
}

/** A DM written with learned patterns follows them: length within 35%, formality within 0.25. */
function adheres(message: string, p: TLearningPatterns): { length: boolean; formality: boolean } {
  return {
    length: Math.abs(message.length - p.structure.preferred_length) <= 0.35 * p.structure.preferred_length,
    formality: Math.abs(formalityScore(message) - p.tone.formality_score) <= 0.25,
  };
}

async function evaluate(
  service: AiService,
  label: string,
  sources: Map<string, TDmSource[]>,
  tick: () => void,
  checkDeterminism: boolean,
): Promise<EngineResult> {
  const ms = Object.fromEntries(OPS.map((op) => [op, [] as number[]])) as Record<Op, number[]>;
  const products: ProductResult[] = [];
  let deterministic: boolean | null = checkDeterminism ? true : null;
  let inventedDropped: boolean | null = null;

  for (const p of SAMPLE_PRODUCTS) {
    tick();
    const r: ProductResult = {
      id: p.id,
      keywords: { hits: 0, total: 0, found: 0, labels: 0, exact: 0 },
      subreddits: { hits: 0, total: 0, found: 0, labels: p.labels.subreddits.length, exact: 0 },
      suggested: [],
      dms: { ok: 0, total: 0, length: 0, reference: 0, cta: 0, spam: 0, different: 0, readable: 0 },
      adherence: { ok: 0, total: 0, length: 0, formality: 0, direction: 0, sources: 0, readable: 0 },
      failures: [],
      readability: [],
    };
    products.push(r);
    const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T | null> => {
      try {
        return await fn();
      } catch (error) {
        r.failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    };

    const keywords = await attempt('keywords', () =>
      timed(ms.generate_keywords, () => service.generateKeywords(p)),
    );
    if (!keywords) continue;
    r.keywords = keywordScore(
      keywords.map((k) => k.keyword),
      [...p.labels.product_keywords, ...p.labels.icp_keywords],
    );

    const suggestions = await attempt('subreddits', () =>
      timed(ms.suggest_subreddits, () => service.suggestSubreddits({ product: p, keywords })),
    );
    if (suggestions) {
      r.suggested = suggestions.map((s) => s.subreddit_name);
      r.subreddits = subredditScore(r.suggested, p.labels.subreddits);
      if (service.provider === 'llm')
        inventedDropped = (inventedDropped ?? true) && !r.suggested.includes(INVENTED_SUBREDDIT);
    }

    const brief = await timed(ms.learn_patterns, () => service.learnPatterns(briefInformalEdits(p)));
    const formal = await timed(ms.learn_patterns, () => service.learnPatterns(detailedFormalEdits(p)));

    const readable = (text: string, source: TDmSource, what: string, greetings: readonly string[]) => {
      const issues = readabilityIssues(text, { greetings, product: p, source });
      for (const issue of issues) r.readability.push(`${source.source_type}, ${what}: ${issue}`);
      return issues.length === 0;
    };
    const styleGreetings = targetsFor({ product: p, patterns: null }).greetings;

    for (const source of sources.get(p.id)!) {
      const first = await attempt('dm', () =>
        timed(ms.write_dm, () => service.writeDm({ product: p, source })),
      );
      const again = first
        ? await attempt('regenerate', () =>
            timed(ms.regenerate_dm, () => service.regenerateDm({ product: p, source, previous: first })),
          )
        : null;
      for (const [d, what] of [
        [first, 'written'],
        [again, 'regenerated'],
      ] as const) {
        if (!d) continue;
        const c = checkDm(d.message_content, source, p);
        r.dms.readable += +readable(d.message_content, source, what, styleGreetings);
        r.dms.total++;
        r.dms.ok += +c.ok;
        r.dms.length += +c.withinLimit;
        r.dms.reference += +c.referencesSource;
        r.dms.cta += +c.hasCallToAction;
        r.dms.spam += +c.spamFree;
      }
      if (first && again && first.message_content !== again.message_content) r.dms.different++;

      const short = await attempt('dm brief', () =>
        timed(ms.write_dm, () => service.writeDm({ product: p, source, patterns: brief })),
      );
      const long = await attempt('dm formal', () =>
        timed(ms.write_dm, () => service.writeDm({ product: p, source, patterns: formal })),
      );
      if (!first || !short || !long) continue;
      for (const [d, patterns, what] of [
        [short.message_content, brief, 'brief patterns'],
        [long.message_content, formal, 'formal patterns'],
      ] as const) {
        const a = adheres(d, patterns);
        r.adherence.readable += +readable(d, source, what, targetsFor({ product: p, patterns }).greetings);
        const ok = a.length && a.formality && checkDm(d, source, p).ok;
        r.adherence.total++;
        r.adherence.ok += +ok;
        r.adherence.length += +a.length;
        r.adherence.formality += +a.formality;
      }
      const plain = first.message_content;
      const f = formalityScore;
      r.adherence.sources++;
      r.adherence.direction += +(
        short.message_content.length < plain.length &&
        f(short.message_content) < f(plain) &&
        long.message_content.length > plain.length &&
        f(long.message_content) > f(plain)
      );

      if (checkDeterminism) {
        const repeat = await service.writeDm({ product: p, source });
        deterministic &&= repeat.message_content === first.message_content;
      }
    }
    if (checkDeterminism) {
      tick();
      const k2 = await service.generateKeywords(p);
      const s2 = await service.suggestSubreddits({ product: p, keywords: k2 });
      deterministic &&=
        JSON.stringify(k2) === JSON.stringify(keywords) &&
        JSON.stringify(s2.map((s) => s.subreddit_name)) === JSON.stringify(r.suggested);
    }
  }
  return { label, products, ms, deterministic, inventedDropped };
}

const fmt = (xs: number[], f: (x: number[]) => number) => (xs.length ? f(xs).toFixed(1) : 'n/a');
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.95 * xs.length))]!;

function report(engines: EngineResult[], meta: { coldStartMs: number; llmNote: string }): string {
  const lines: string[] = [];
  const totals = engines.map((e) => {
    const kw = sum(e.products.map((p) => p.keywords));
    const sr = sum(e.products.map((p) => p.subreddits));
    const dm = e.products.reduce(
      (a, p) => ({
        ok: a.ok + p.dms.ok,
        total: a.total + p.dms.total,
        readable: a.readable + p.dms.readable,
      }),
      { ok: 0, total: 0, readable: 0 },
    );
    const ad = e.products.reduce(
      (a, p) => ({
        ok: a.ok + p.adherence.ok,
        total: a.total + p.adherence.total,
        direction: a.direction + p.adherence.direction,
        sources: a.sources + p.adherence.sources,
        readable: a.readable + p.adherence.readable,
      }),
      { ok: 0, total: 0, direction: 0, sources: 0, readable: 0 },
    );
    return { kw, sr, dm, ad };
  });

  lines.push(`# AI quality: ${SAMPLE_PRODUCTS.length} sample products, Reddit simulator seed 42`, '');
  lines.push(`Generated by \`npm run bench:ai\` (bench/ai-eval). ${meta.llmNote}`, '');
  lines.push('## Summary', '');
  lines.push(`| measure | ${engines.map((e) => e.label).join(' | ')} |`);
  lines.push(`|---|${engines.map(() => '---:').join('|')}|`);
  const row = (name: string, f: (i: number) => string) =>
    lines.push(`| ${name} | ${engines.map((_, i) => f(i)).join(' | ')} |`);
  row('keyword precision', (i) => pct(totals[i]!.kw.hits, totals[i]!.kw.total));
  row('keyword recall', (i) => pct(totals[i]!.kw.found, totals[i]!.kw.labels));
  row('keyword precision, exact matches only', (i) => pct(totals[i]!.kw.exact, totals[i]!.kw.total));
  row('suggested subreddits that are relevant', (i) => pct(totals[i]!.sr.hits, totals[i]!.sr.total));
  row('labelled subreddits found (recall)', (i) => pct(totals[i]!.sr.found, totals[i]!.sr.labels));
  row(
    'DMs meeting every constraint',
    (i) => `${pct(totals[i]!.dm.ok, totals[i]!.dm.total)} (${totals[i]!.dm.ok}/${totals[i]!.dm.total})`,
  );
  row(
    'DMs with no readability issue',
    (i) =>
      `${pct(totals[i]!.dm.readable, totals[i]!.dm.total)} (${totals[i]!.dm.readable}/${totals[i]!.dm.total})`,
  );
  row(
    'DMs written with learned patterns with no readability issue',
    (i) =>
      `${pct(totals[i]!.ad.readable, totals[i]!.ad.total)} (${totals[i]!.ad.readable}/${totals[i]!.ad.total})`,
  );
  row(
    'pattern adherence (length ±35% and formality ±0.25)',
    (i) => `${pct(totals[i]!.ad.ok, totals[i]!.ad.total)} (${totals[i]!.ad.ok}/${totals[i]!.ad.total})`,
  );
  row(
    'patterns move the DM the right way (brief: shorter + less formal; formal: longer + more formal)',
    (i) =>
      `${pct(totals[i]!.ad.direction, totals[i]!.ad.sources)} (${totals[i]!.ad.direction}/${totals[i]!.ad.sources})`,
  );
  for (const op of OPS) {
    row(`ms per ${op.replace(/_/g, ' ')} (mean / p95 / max)`, (i) => {
      const xs = engines[i]!.ms[op];
      return `${fmt(xs, mean)} / ${fmt(xs, p95)} / ${fmt(xs, (x) => Math.max(...x))}`;
    });
  }
  row('deterministic (same input, same output)', (i) =>
    engines[i]!.deterministic === null ? 'not checked' : engines[i]!.deterministic ? 'yes' : 'NO',
  );
  row('failed operations', (i) => String(engines[i]!.products.reduce((n, p) => n + p.failures.length, 0)));
  lines.push('');
  lines.push(
    `Offline cold start (loading the English model, first keywords): ${meta.coldStartMs.toFixed(0)} ms, once per process.`,
  );
  const llm = engines.find((e) => e.inventedDropped !== null);
  if (llm) {
    lines.push(
      `Subreddit names the model invented were ${llm.inventedDropped ? 'always' : 'NOT always'} dropped by the existence check.`,
    );
  }
  lines.push('');

  for (const e of engines) {
    lines.push(`## ${e.label}: per product`, '');
    lines.push(
      '| product | keywords P / R | subreddits relevant / suggested (found / labelled) | DMs ok | DMs readable | adherence | suggested |',
    );
    lines.push('|---|---:|---:|---:|---:|---:|---|');
    for (const p of e.products) {
      lines.push(
        `| ${p.id} | ${pct(p.keywords.hits, p.keywords.total)} / ${pct(p.keywords.found, p.keywords.labels)} | ` +
          `${p.subreddits.hits}/${p.subreddits.total} (${p.subreddits.found}/${p.subreddits.labels}) | ` +
          `${p.dms.ok}/${p.dms.total} | ${p.dms.readable}/${p.dms.total} | ${p.adherence.ok}/${p.adherence.total} | ` +
          `${p.suggested.join(', ')} |`,
      );
    }
    const failures = e.products.flatMap((p) => p.failures.map((f) => `${p.id}: ${f}`));
    if (failures.length) lines.push('', 'Failures:', '', ...failures.map((f) => `- ${f}`));
    const readability = e.products.flatMap((p) => p.readability.map((f) => `${p.id}, ${f}`));
    if (readability.length) lines.push('', 'Readability issues:', '', ...readability.map((f) => `- ${f}`));
    lines.push('');
  }

  lines.push('## How it is measured', '');
  lines.push(
    '- Keywords: generated product and ICP keywords against the labelled ones of both kinds. A keyword matches',
    '  a label when the words of one (lower-case, plural "s" removed) contain the words of the other.',
    '- Subreddits: a suggestion is relevant when it is among the labelled subreddits of the product.',
    '- DMs: per product a post, a comment and a profile from the first labelled subreddit (the simulator has',
    "  no bios: a profile reads one of its author's comments), each written and regenerated. Every constraint:",
    '  at most 400 characters, quotes or names a phrase of what the person wrote, carries the call to action',
    '  verbatim, no phrase of the spam list.',
    '- Readability (`readabilityIssues` in apps/server/src/ai/dm-checks.ts, wink-nlp tags, quoted words of',
    '  theirs excluded): no sentence ending on a conjunction, preposition, determiner or a verb without its',
    '  object, no list left without "and", no reference starting with a verb ("about tried exit surveys"),',
    '  no repeated word, a greeting that fits the writing style (or, with learned patterns, the targets:',
    '  never "Dear" unless the style says formal) and no claim the product information does not make',
    '  (founder, years, customer counts). The previous offline composer scored 61% (51/84) on the written',
    '  and regenerated DMs and 55% (46/84) on those written with learned patterns.',
    '- Pattern adherence: patterns learned from 4 brief, casual edits and from 3 long, formal edits per product;',
    '  a DM written with them adheres when its length is within 35% of the learned preferred length, its',
    "  formality (the learner's own scorer) within 0.25 of the learned score, and it meets every constraint.",
    '- Time: wall clock per operation in this process, subreddit suggestions including the HTTP calls to the',
    '  simulator on loopback; LLM figures include the HTTP round trip to the endpoint.',
  );
  return `${lines.join('\n')}\n`;
}

async function main() {
  // The server's Reddit client (rate budget, token cache, retries) on a PGlite database, against the
  // simulator (seed 42) on a virtual clock.
  const database = await openTestDatabase();
  if (database.driver === 'postgres') await database.migrate();
  const rig = await startRedditRig(database.db);
  const sim = rig.sim;
  // A fresh rate-limit window for each product: each run stays far below 100 requests a minute.
  const tick = () => {
    rig.clock.t += 61_000;
  };
  const directory = (clientId: string) => createRedditSubredditDirectory(rig.client({ clientId }).app);

  const coldStart = performance.now();
  const offline = createAiService({
    config: { llm: null },
    log: silent,
    subreddits: directory('bench-offline'),
  });
  await offline.generateKeywords(SAMPLE_PRODUCTS[0]!);
  const coldStartMs = performance.now() - coldStart;

  let llmConfig: NonNullable<Config['llm']>;
  let llmLabel: string;
  let llmNote: string;
  const fake = process.env.LLM_BASE_URL ? null : await startFakeOpenAi(offlineBackedAnswer);
  if (fake) {
    llmConfig = { baseUrl: fake.url, apiKey: 'bench-key', model: 'fake-offline-backed', timeoutMs: 30_000 };
    llmLabel = 'LLM provider, local fake endpoint';
    llmNote =
      'The LLM column ran against a local fake OpenAI-compatible server whose answers come from the offline ' +
      'engine: its figures measure the plumbing (prompts, HTTP, structured output, validation, existence ' +
      'checks), not the quality of any model. Set LLM_BASE_URL and LLM_MODEL to measure a real model.';
  } else {
    llmConfig = {
      baseUrl: process.env.LLM_BASE_URL!.replace(/\/$/, ''),
      apiKey: process.env.LLM_API_KEY ?? null,
      model: process.env.LLM_MODEL ?? 'unknown',
      timeoutMs: Number(process.env.LLM_TIMEOUT_MS ?? 30_000),
    };
    llmLabel = `LLM ${llmConfig.model}`;
    llmNote = `The LLM column ran against ${new URL(llmConfig.baseUrl).host}, model ${llmConfig.model}.`;
  }
  const llm = createAiService({
    config: { llm: llmConfig },
    log: silent,
    subreddits: directory('bench-llm'),
  });

  const token = await simToken(sim.url, 'bench-sources');
  const sources = new Map<string, TDmSource[]>();
  for (const p of SAMPLE_PRODUCTS as SampleProduct[]) {
    const keywords = [...p.labels.product_keywords, ...p.labels.icp_keywords];
    sources.set(p.id, await sourcesFrom(sim.url, token, p.labels.subreddits[0]!, keywords));
  }

  const engines = [
    await evaluate(offline, 'offline engine', sources, tick, true),
    await evaluate(llm, llmLabel, sources, tick, false),
  ];
  await fake?.close();
  await sim.close();
  await database.close();

  const text = report(engines, { coldStartMs, llmNote });
  console.log(text);
  const file = path.join(import.meta.dirname, 'results.md');
  writeFileSync(file, text);
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
