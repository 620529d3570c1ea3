import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The server's version, as package.json names it (sent to Reddit in the User-Agent). */
export const APP_VERSION: string = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  }
).version;
