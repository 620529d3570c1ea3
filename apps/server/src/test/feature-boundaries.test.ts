import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** Lints one import as if it were written in `file`, and returns the boundary rule's messages. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, {
    filePath: path.join(ROOT, file),
  });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.message);
}

describe('feature boundaries (lint)', () => {
  it("refuses a relative import into another server feature's internals", async () => {
    expect(
      await boundaryErrors(
        'apps/server/src/features/billing/fixture.ts',
        "import { x } from '../projects/projects.service';",
      ),
    ).toEqual([expect.stringContaining('through its index.ts')]);
  });

  it("refuses a relative import into another web feature's internals", async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/workspace/components/fixture.ts',
        "import { x } from '../../projects/components/project-selector';",
      ),
    ).toEqual([expect.stringContaining('through its index.ts')]);
  });

  it("refuses the app's own modules reaching into a feature", async () => {
    expect(
      await boundaryErrors('apps/server/src/fixture.ts', "import { x } from './features/auth/auth.service';"),
    ).toHaveLength(1);
  });

  it('refuses a lower layer importing a feature at all', async () => {
    for (const file of [
      'apps/server/src/http/fixture.ts',
      'apps/server/src/integrations/reddit/fixture.ts',
    ]) {
      const from = file.includes('integrations') ? '../../features/auth' : '../features/auth';
      expect(await boundaryErrors(file, `import { x } from '${from}';`), file).not.toEqual([]);
    }
    expect(
      await boundaryErrors(
        'apps/web/src/components/ui/fixture.ts',
        "import { x } from '../../features/auth';",
      ),
    ).not.toEqual([]);
  });

  it('allows a feature through its index.ts, and table files for foreign keys', async () => {
    expect(
      await boundaryErrors('apps/server/src/features/billing/fixture.ts', "import { x } from '../projects';"),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'apps/server/src/features/billing/fixture.ts',
        "import { x } from '../users/users.table';",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('apps/web/src/features/workspace/fixture.ts', "import { x } from '../projects';"),
    ).toEqual([]);
  });
});
