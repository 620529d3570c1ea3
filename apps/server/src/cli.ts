import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/client';
import { reencryptSecrets } from './security/reencrypt-secrets';
import { SecretBox } from './security/secrets';
import { issueV3Link } from './features/auth';
import { V3_TTL_SECONDS } from './features/auth';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  v3-link --email <address>   Print a single-use, ${V3_TTL_SECONDS / 60}-minute direct sign-in link
                              for a MODERATOR or ADMIN account (checked when the link is used).
  reencrypt-secrets           Re-encrypt every stored secret with the first key of SECRETS_KEYS
                              (run after putting a new key first; older keys can then be removed).`;

const HELP = new Set(['help', '--help', '-h']);
const asksForHelp = (argv: string[]) =>
  HELP.has(argv[0] ?? '') || argv.includes('--help') || argv.includes('-h');

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || asksForHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
  if (command === 'v3-link') {
    let email: string | undefined;
    try {
      email = parseArgs({ args: rest, options: { email: { type: 'string' } } }).values.email;
    } catch (error) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (!email || !email.includes('@')) {
      console.error('v3-link needs --email <address>\n\n' + USAGE);
      return 2;
    }
    const config = loadConfig();
    console.log(await issueV3Link({ config, clock: systemClock }, email));
    return 0;
  }
  if (command === 'reencrypt-secrets') {
    if (rest.length > 0) {
      console.error(`reencrypt-secrets takes no options\n\n${USAGE}`);
      return 2;
    }
    const config = loadConfig();
    const database = await openDatabase({
      url: config.databaseUrl,
      dataDir: path.join(config.dataDir, 'pglite'),
    });
    try {
      await database.migrate();
      const secrets = new SecretBox(config.secretKeys);
      const reports = await reencryptSecrets(database.db, secrets);
      for (const r of reports) {
        console.log(
          `${r.table}.${r.column}: ${r.reencrypted} of ${r.rows} re-encrypted with key '${secrets.currentKeyId}'` +
            (r.unreadable ? `; ${r.unreadable} could not be decrypted with the configured keys` : ''),
        );
      }
      if (reports.some((r) => r.unreadable > 0)) return 1;
    } finally {
      await database.close();
    }
    return 0;
  }
  console.error(`Unknown command: ${command}\n\n${USAGE}`);
  return 2;
}

// Run as a program, not when a test imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
