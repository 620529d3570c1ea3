/**
 * What the AI operations cost, as ratios against a baseline measured in the same run, with p50 and p95.
 *
 * - Offline engine (the embedded default), in process. Baseline: validating the product information
 *   with its contract schema, which every AI step pays anyway.
 * - LLM provider against a local fake OpenAI-compatible endpoint on loopback that answers at once with a
 *   canned answer, so only the plumbing is timed (prompt, AI SDK, structured output, validation, logs).
 *   Baseline: the provider's own keywords request replayed with a bare `fetch`.
 * - Time limit: an endpoint that answers after 2 s, with a 150 ms limit. Ratio: time until the call fails
 *   against the limit.
 *
 * Operations run in rounds, each round calling every operation of a table once, so a busy machine
 * slows them alike and the ratios hold.
 *
 *   npm run bench:ai-latency
 *   BENCH_ROUNDS=500 npm run bench:ai-latency
 *
 * Prints a report and writes it to bench/ai/results.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { ZProductInfoFields } from '@threadreach/contract';
import pino from 'pino';
import { BRIEF_INFORMAL, POST, PRODUCT, SUBREDDITS } from '../../apps/server/src/ai/ai-test.fixtures';
import { AiError } from '../../apps/server/src/ai/ai.provider';
import { type AiService, createAiService } from '../../apps/server/src/ai/ai.service';
import {
  type FakeAnswer,
  type FakeChatRequest,
  startFakeOpenAi,
} from '../../apps/server/src/ai/llm/fake-openai.server';
import { composeDm } from '../../apps/server/src/ai/offline/dm-composer';
import { createMemorySubredditDirectory } from '../../apps/server/src/ai/subreddit-directory';
import { summarize, type LatencySummary } from '../lib/latency';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP_ROUNDS = 20;
const LIMITED_CALLS = Number(process.env.BENCH_LIMITED_CALLS ?? 20);
const LIMIT_MS = 150;
const SLOW_ANSWER_MS = 2000;

const silent = pino({ level: 'silent' });
const directory = createMemorySubredditDirectory(SUBREDDITS);

type Operation = [name: string, call: (round: number) => unknown];

/** Runs every operation once per round; the first operation is the baseline. */
async function inRounds(operations: Operation[]): Promise<LatencySummary[]> {
  const latencies = operations.map(() => [] as number[]);
  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    for (const [i, [, call]] of operations.entries()) {
      const t0 = performance.now();
      await call(round);
      if (round >= 0) latencies[i]!.push(performance.now() - t0);
    }
  }
  return operations.map(([name], i) => {
    const ms = latencies[i]!;
    return summarize(
      name,
      ms,
      ms.reduce((a, b) => a + b, 0),
    );
  });
}

function table(results: LatencySummary[], against: { label: string; ms: number }): string[] {
  return [
    `| operation | calls | p50 ms | p95 ms | p50 vs ${against.label} |`,
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.requests} | ${ms(r.p50)} | ${ms(r.p95)} | ${(r.p50 / against.ms).toFixed(r.p50 / against.ms < 10 ? 2 : 1)}x |`,
    ),
  ];
}

const ms = (value: number) => (value < 1 ? value.toFixed(3) : value.toFixed(2));

async function offlineEngine(): Promise<string[]> {
  const service = createAiService({ config: { llm: null }, log: silent, subreddits: directory });
  const keywords = await service.generateKeywords(PRODUCT);
  const draft = await service.writeDm({ product: PRODUCT, source: POST });
  const results = await inRounds([
    ['validate product information (baseline)', () => ZProductInfoFields.parse(PRODUCT)],
    ['generateKeywords', () => service.generateKeywords(PRODUCT)],
    ['suggestSubreddits', () => service.suggestSubreddits({ product: PRODUCT, keywords })],
    ['writeDm', () => service.writeDm({ product: PRODUCT, source: POST })],
    ['regenerateDm', () => service.regenerateDm({ product: PRODUCT, source: POST, previous: draft })],
    ['learnPatterns (3 edits)', () => service.learnPatterns(BRIEF_INFORMAL)],
    [
      'composeDm (variants 0-19)',
      (round) =>
        composeDm({
          product: PRODUCT,
          source: POST,
          patterns: null,
          variant: (round + WARMUP_ROUNDS) % 20,
          previous: null,
        }),
    ],
  ]);
  return [
    `Offline engine, in process, ${ROUNDS} rounds`,
    '',
    ...table(results, { label: 'baseline', ms: results[0]!.p50 }),
  ];
}

const KEYWORDS = JSON.stringify({
  product_keywords: ['churn analytics', 'mrr tracking'],
  icp_keywords: ['saas founders'],
});
const DM = JSON.stringify({
  message: 'Hey Jane, saw your MRR post. Try it free for 14 days at churnpilot.io',
});

function cannedAnswer(request: FakeChatRequest): FakeAnswer {
  return { content: request.response_format?.json_schema?.name === 'keywords' ? KEYWORDS : DM };
}

function llmService(baseUrl: string, timeoutMs: number): AiService {
  return createAiService({
    config: { llm: { baseUrl, apiKey: 'bench-key', model: 'bench-model', timeoutMs } },
    log: silent,
    subreddits: directory,
  });
}

async function llmPlumbing(): Promise<string[]> {
  const fake = await startFakeOpenAi(cannedAnswer);
  try {
    const service = llmService(fake.url, 30_000);
    await service.generateKeywords(PRODUCT);
    // The provider's own request, sent again without the SDK.
    const { headers, ...sent } = fake.requests[0]!;
    const body = JSON.stringify(sent);
    const endpoint = `${fake.url}/chat/completions`;
    const results = await inRounds([
      [
        'bare fetch of the same request (baseline)',
        async () => {
          const res = await fetch(endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: headers.authorization! },
            body,
          });
          await res.json();
        },
      ],
      ['generateKeywords', () => service.generateKeywords(PRODUCT)],
      ['writeDm', () => service.writeDm({ product: PRODUCT, source: POST })],
    ]);
    return [
      `LLM provider, local fake endpoint answering at once, ${ROUNDS} rounds`,
      '',
      ...table(results, { label: 'baseline', ms: results[0]!.p50 }),
    ];
  } finally {
    await fake.close();
  }
}

async function timeLimit(): Promise<string[]> {
  const fake = await startFakeOpenAi(() => ({ content: KEYWORDS, delayMs: SLOW_ANSWER_MS }));
  try {
    const service = llmService(fake.url, LIMIT_MS);
    const latencies: number[] = [];
    for (let i = 0; i < LIMITED_CALLS; i++) {
      const t0 = performance.now();
      const error = await service.generateKeywords(PRODUCT).then(
        () => null,
        (e: unknown) => e,
      );
      latencies.push(performance.now() - t0);
      if (!(error instanceof AiError && error.code === 'timeout')) {
        throw new Error('a call past the time limit did not fail with a timeout', { cause: error });
      }
    }
    const result = summarize(
      `generateKeywords, answer after ${SLOW_ANSWER_MS} ms`,
      latencies,
      latencies.reduce((a, b) => a + b, 0),
    );
    return [
      `LLM time limit of ${LIMIT_MS} ms, ${LIMITED_CALLS} calls`,
      '',
      ...table([result], { label: 'limit', ms: LIMIT_MS }),
    ];
  } finally {
    await fake.close();
  }
}

async function main() {
  const header = [`AI latency on Node ${process.version}, ${cpus().length} cores`];
  const sections = [header, await offlineEngine(), await llmPlumbing(), await timeLimit()];
  const report = sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
  console.log(report);
  writeFileSync(path.join(import.meta.dirname, 'results.md'), report);
}

void main();
