/**
 * Reads recorded Reddit traffic (cassettes, see shared/fixtures/reddit-real/README.md) and parses every
 * answer of an endpoint the product calls exactly as the client does, with `parseRedditAnswer`.
 *
 *   npm run -s reddit:conformance -- ../shared/fixtures/reddit-real
 *
 * Prints one line per file and ends with `N passed, M failed`; exits 1 when M > 0 or N is 0.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { describeIssues, parseRedditAnswer, redditEndpointOf } from './reddit.endpoints';

const ZCassette = z.looseObject({
  interactions: z.array(
    z.looseObject({
      request: z.looseObject({ method: z.string(), url: z.string() }),
      response: z.looseObject({ status: z.number().int(), body: z.unknown() }),
    }),
  ),
});

export interface ConformanceFailure {
  request: string;
  status: number;
  problem: string;
}

export interface ConformanceFile {
  file: string;
  parsed: number;
  failed: number;
  /** Answers of endpoints the product does not call. */
  skipped: number;
  /** Answers the client never reads (5xx and 429 are retried or waited out, whatever their body). */
  unread: number;
  failures: ConformanceFailure[];
  byEndpoint: Record<string, number>;
}

export interface ConformanceReport {
  files: ConformanceFile[];
  passed: number;
  failed: number;
  /** Answers parsed per endpoint label. */
  byEndpoint: Record<string, number>;
}

/** Checks every `*.json` cassette in `dir`. A file that is not a cassette counts as one failure. */
export async function checkRedditConformance(dir: string): Promise<ConformanceReport> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const files: ConformanceFile[] = [];
  for (const file of names) {
    files.push(checkCassette(file, await readFile(path.join(dir, file), 'utf8')));
  }
  const byEndpoint: Record<string, number> = {};
  for (const f of files) {
    for (const [label, n] of Object.entries(f.byEndpoint)) byEndpoint[label] = (byEndpoint[label] ?? 0) + n;
  }
  return {
    files,
    passed: files.reduce((n, f) => n + f.parsed, 0),
    failed: files.reduce((n, f) => n + f.failed, 0),
    byEndpoint,
  };
}

function checkCassette(file: string, text: string): ConformanceFile {
  const result: ConformanceFile = {
    file,
    parsed: 0,
    failed: 0,
    skipped: 0,
    unread: 0,
    failures: [],
    byEndpoint: {},
  };
  const notCassette = (problem: string) => {
    result.failed = 1;
    result.failures.push({ request: '(file)', status: 0, problem: `not a cassette: ${problem}` });
    return result;
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return notCassette((error as Error).message);
  }
  const parsed = ZCassette.safeParse(json);
  if (!parsed.success) return notCassette(describeIssues(parsed.error));
  const cassette = parsed.data;
  for (const { request, response } of cassette.interactions) {
    const url = new URL(request.url);
    const endpoint = redditEndpointOf(request.method, url.pathname);
    if (!endpoint) {
      result.skipped++;
      continue;
    }
    if (response.status >= 500 || response.status === 429) {
      result.unread++;
      continue;
    }
    const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? null);
    const answer = parseRedditAnswer(endpoint, response.status, body);
    if (answer.kind === 'invalid') {
      result.failed++;
      result.failures.push({
        request: `${request.method.toUpperCase()} ${url.pathname}`,
        status: response.status,
        problem: answer.problem,
      });
    } else {
      result.parsed++;
      result.byEndpoint[endpoint.label] = (result.byEndpoint[endpoint.label] ?? 0) + 1;
    }
  }
  return result;
}

/** The report as printed: a line per file (and per failure), then `N passed, M failed`. */
export function formatConformance(report: ConformanceReport): string[] {
  const lines: string[] = [];
  for (const f of report.files) {
    const unread = f.unread > 0 ? `, ${f.unread} not read by the client (5xx, 429)` : '';
    lines.push(
      `${f.file}: ${f.parsed} parsed, ${f.failed} failed, ${f.skipped} skipped (endpoints not used)${unread}`,
    );
    for (const failure of f.failures) {
      lines.push(`  ${failure.request} ${failure.status}: ${failure.problem}`);
    }
  }
  lines.push(`${report.passed} passed, ${report.failed} failed`);
  return lines;
}

async function main(argv: string[]): Promise<number> {
  const [dir] = argv;
  if (!dir) {
    console.error('Usage: npm run -s reddit:conformance -- <directory of cassettes>');
    return 2;
  }
  const report = await checkRedditConformance(path.resolve(dir));
  for (const line of formatConformance(report)) console.log(line);
  return report.failed > 0 || report.passed === 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error((error as Error).message);
      process.exitCode = 1;
    },
  );
}
