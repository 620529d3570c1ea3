import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');
/** Where services, repositories and jobs live: they take time from `ctx.clock` and never wait. */
const SERVICE_DIRS = ['features', 'security', 'jobs'];
const WALL_CLOCK = [
  /\bDate\.now\(/,
  /\bnew Date\(\)/,
  /\bperformance\.now\(/,
  /\bsetTimeout\(/,
  /\bsetInterval\(/,
  /\.sleep\(/,
];

function sources(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/\.test(-support)?\.ts$/.test(f))
    .map((f) => path.join(dir, f));
}

describe('time in services and jobs', () => {
  it('comes from ctx.clock: no wall-clock reads, sleeps or timers', () => {
    const found: string[] = [];
    for (const file of SERVICE_DIRS.flatMap(sources)) {
      readFileSync(path.join(SRC, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (WALL_CLOCK.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
