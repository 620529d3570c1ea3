import {
  DO_NOT_CONTACT_IMPORT_MAX_LINES,
  isRedditUsername,
  normalizeRedditUsername,
  type TInvalidImportLine,
} from '@threadreach/contract';
import { badRequest } from '../../http/errors';

/** Header names of the column that holds the user names. */
const USERNAME_HEADERS = new Set([
  'username',
  'user_name',
  'user name',
  'reddit_username',
  'recipient_username',
]);
const SHOWN_VALUE_LENGTH = 80;

export interface ParsedImport {
  /** Valid names with their line, in file order (duplicates included). */
  names: Array<{ line: number; username: string }>;
  invalid: TInvalidImportLine[];
}

/** The fields of one CSV line: commas separate, double quotes enclose, "" is a quote. */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}

/**
 * Reads an import: one name per line, or a header row naming a `username` column. Blank lines are
 * skipped; lines that hold no valid name are reported with their number.
 */
export function parseUsernameCsv(text: string): ParsedImport {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  // A file's last line ends with a line break too: what follows it is not a line.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  if (lines.length > DO_NOT_CONTACT_IMPORT_MAX_LINES) {
    throw badRequest(
      `The file has more than ${DO_NOT_CONTACT_IMPORT_MAX_LINES.toLocaleString('en-US')} lines`,
      'too_many_lines',
    );
  }
  const first = lines.findIndex((l) => l.trim() !== '');
  const result: ParsedImport = { names: [], invalid: [] };
  if (first < 0) return result;

  const header = csvFields(lines[first]!).map((f) => f.toLowerCase());
  let column = header.findIndex((f) => USERNAME_HEADERS.has(f));
  const hasHeader = column >= 0;
  if (!hasHeader) {
    if (header.length > 1) {
      throw badRequest('The file needs a "username" column, or one name per line', 'no_username_column');
    }
    column = 0;
  }
  lines.forEach((line, index) => {
    if ((hasHeader && index <= first) || line.trim() === '') return;
    const fields = csvFields(line);
    const value = fields[column] ?? '';
    const username = normalizeRedditUsername(value);
    if (isRedditUsername(username)) {
      result.names.push({ line: index + 1, username });
      return;
    }
    result.invalid.push({
      line: index + 1,
      value: (value || line.trim()).slice(0, SHOWN_VALUE_LENGTH),
      reason: value ? 'Not a Reddit user name' : 'No user name in this row',
    });
  });
  return result;
}
