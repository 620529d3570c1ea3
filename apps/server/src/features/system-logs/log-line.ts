import type { TLogLevel, TLoggerName } from '@threadreach/contract';
import { scrubSecrets, serializeError } from '../../http/logger';
import type { NewSystemLogRow } from './system-logs.table';

export const MESSAGE_MAX = 4000;

/** pino's numeric levels as /logs names them. */
export function levelOf(pinoLevel: number): TLogLevel {
  if (pinoLevel >= 60) return 'CRITICAL';
  if (pinoLevel >= 50) return 'ERROR';
  if (pinoLevel >= 40) return 'WARNING';
  if (pinoLevel >= 30) return 'INFO';
  return 'DEBUG';
}

const KNOWN_LOGGERS: ReadonlySet<string> = new Set<TLoggerName>(['http.access', 'ai-service']);

/**
 * Cut to `max`, NUL shown as U+FFFD: PostgreSQL text and jsonb hold no NUL, and one such line would cost
 * its whole batch.
 */
function clip(text: string, max: number): string {
  const clean = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function errorText(logged: unknown): string | null {
  if (!logged || typeof logged !== 'object') return null;
  // A line taken from the logger's call still holds the error itself: serialized as stdout has it.
  const err = logged instanceof Error ? serializeError(logged) : logged;
  const { type, message } = err as { type?: unknown; message?: unknown };
  if (typeof message !== 'string' || !message) return typeof type === 'string' ? type : null;
  return typeof type === 'string' && type !== 'Error' ? `${type}: ${message}` : message;
}

/**
 * One parsed pino line as a system_logs row: level, logger and the message (with the error's, if any),
 * scrubbed; null for what is not a log line.
 */
export function toSystemLogRow(line: unknown): NewSystemLogRow | null {
  if (!line || typeof line !== 'object') return null;
  const entry = line as Record<string, unknown>;
  if (typeof entry.time !== 'number' || typeof entry.level !== 'number') return null;
  return rowOf(entry.level, entry.time, entry.msg, entry.name, entry.err ?? entry.error);
}

/**
 * The row of a logger's call, as SystemLogSink receives it beside the line: the logger's bound fields,
 * then the call's own, which win as in the JSON line. Nothing here has been redacted yet, so the message
 * is scrubbed, and an error goes through the same serializer as on stdout.
 */
export function callToSystemLogRow(
  level: number,
  time: number,
  msg: string | undefined,
  bound: Record<string, unknown>,
  fields: Record<string, unknown>,
): NewSystemLogRow {
  const err = either(fields, bound, 'err') ?? either(fields, bound, 'error');
  return rowOf(level, time, msg ?? either(fields, bound, 'msg'), either(fields, bound, 'name'), err);
}

function either(first: Record<string, unknown>, second: Record<string, unknown>, key: string): unknown {
  return key in first ? first[key] : second[key];
}

/** The row of a line's parts: the level, time, message, logger name and error as the line holds them. */
export function rowOf(
  level: number,
  time: number,
  msgValue: unknown,
  nameValue: unknown,
  errValue: unknown,
): NewSystemLogRow {
  const name = typeof nameValue === 'string' && KNOWN_LOGGERS.has(nameValue) ? nameValue : 'server';
  const msg = typeof msgValue === 'string' ? msgValue : '';
  const err = errorText(errValue);
  const message = err && !msg.includes(err) ? (msg ? `${msg}: ${err}` : err) : msg;
  return {
    timestamp: new Date(time),
    level: levelOf(level),
    logger: name,
    message: clip(scrubSecrets(message), MESSAGE_MAX),
  };
}
