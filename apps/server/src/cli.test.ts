import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli';

/** Runs one command line; these stop before any configuration is read. */
async function cli(...args: string[]) {
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  const code = await main(args);
  const text = (spy: typeof out) => spy.mock.calls.map((call) => call.join(' ')).join('\n');
  const result = { code, stdout: text(out), stderr: text(err) };
  vi.restoreAllMocks();
  return result;
}

afterEach(() => vi.restoreAllMocks());

describe('cli', () => {
  it('prints its usage for --help and exits 0', async () => {
    for (const args of [[], ['--help'], ['help'], ['v3-link', '--help'], ['reencrypt-secrets', '-h']]) {
      const r = await cli(...args);
      expect(r, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/^Usage: npm run cli -- <command> \[options\]/);
    }
  });

  it('refuses what it does not know with the usage and exit code 2, running nothing', async () => {
    const unknown = await cli('v4-link');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^Unknown command: v4-link\n\nUsage:/);
    expect((await cli('v3-link')).stderr).toMatch(/^v3-link needs --email <address>/);
    const badOption = await cli('v3-link', '--mail', 'a@b.test');
    expect(badOption).toMatchObject({ code: 2, stdout: '' });
    expect(badOption.stderr).toMatch(/Unknown option '--mail'/);
    const reencrypt = await cli('reencrypt-secrets', '--dry-run');
    expect(reencrypt).toMatchObject({ code: 2, stdout: '' });
    expect(reencrypt.stderr).toMatch(/^reencrypt-secrets takes no options/);
  });
});
