import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config';

it("documents every configuration variable in the README's table", () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../README.md'), 'utf8');
  const documented = new Set([...readme.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]));
  expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
});
