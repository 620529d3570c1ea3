import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JobDefinition } from './job';
import { JOBS } from './registry';

const SRC = path.resolve(import.meta.dirname, '..');

function isJobDefinition(value: unknown): value is JobDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JobDefinition).name === 'string' &&
    typeof (value as JobDefinition).handler === 'function' &&
    'schema' in value
  );
}

describe('job registry', () => {
  it('lists every job defined in a *.job.ts file', async () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.job.ts'),
    );
    expect(files.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const file of files) {
      const exported = Object.entries(await import(pathToFileURL(path.join(SRC, file)).href));
      const jobs = exported.filter(([, value]) => isJobDefinition(value));
      if (jobs.length === 0) missing.push(`${file} defines no job`);
      for (const [name, job] of jobs) {
        if (!JOBS.includes(job as JobDefinition)) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing, 'add these to JOBS in jobs/registry.ts').toEqual([]);
  });

  it('gives every job its own queue name', () => {
    const names = JOBS.map((j) => j.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
