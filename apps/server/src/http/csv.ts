import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** CSV answers (leads, system logs): RFC 4180 records safe to open in a spreadsheet. */

/** Spreadsheets run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): text a spreadsheet would take for a formula is prefixed with a quote so it
 * stays text, and a field holding a comma, quote or line break is quoted with its quotes doubled.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: (string | number)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** Answers a CSV file to download, sent as its records are made (one page of them in memory at a time). */
export function sendCsv(reply: FastifyReply, fileName: string, records: AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(records));
}
