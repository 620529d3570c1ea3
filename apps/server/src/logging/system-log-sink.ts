import pino from 'pino';
import { callToSystemLogRow, rowOf, toSystemLogRow, type NewSystemLogRow } from '../features/system-logs';
import { ReportGate, toStderr } from './report';

export interface SystemLogSinkOptions {
  /** Stores one batch; a rejection drops that batch and nothing else. */
  insert(rows: NewSystemLogRow[]): Promise<void>;
  /** Lines per insert; a full batch is written at once. */
  batchSize?: number;
  /** The longest a line waits for its batch. */
  flushIntervalMs?: number;
  /** Lines held while the database is slow or away; beyond it new lines are dropped. */
  maxBuffered?: number;
  /** Told of failed writes, at most once a minute. Never the logger: that would feed the sink itself. */
  onError?: (message: string) => void;
}

/** A logger's bound fields by logger: the app's loggers and their long-lived children recur on every line. */
const BINDINGS = new WeakMap<object, Record<string, unknown>>();

function bindingsOf(logger: unknown): Record<string, unknown> {
  if (!logger || typeof logger !== 'object') return {};
  let bound = BINDINGS.get(logger);
  if (!bound) {
    const read = (logger as { bindings?: () => unknown }).bindings;
    const value = typeof read === 'function' ? (read.call(logger) as unknown) : null;
    bound = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    BINDINGS.set(logger, bound);
  }
  return bound;
}

/** A field the call did not have: the logger's bound one applies. */
const UNSET = Symbol('unset');

/**
 * A logger's call as the sink keeps it until its batch is stored. Its row is made with the batch, a few
 * hundred in a row where that code runs hot, rather than one on each request among everything else the
 * request runs. What the call held is read at once (its fields may change after); the logger's bound fields
 * do not change.
 */
class PendingCall {
  constructor(
    readonly level: number,
    readonly time: number,
    readonly msg: unknown,
    readonly name: unknown,
    readonly logger: unknown,
  ) {}

  row(): NewSystemLogRow {
    const bound = bindingsOf(this.logger);
    return rowOf(
      this.level,
      this.time,
      this.msg === UNSET ? bound.msg : this.msg,
      this.name === UNSET ? bound.name : this.name,
      bound.err ?? bound.error,
    );
  }
}

/**
 * The pino destination that copies every line into system_logs. Writing a line only turns it into a row and
 * queues it; batches go to the database in the background, one insert at a time, so a slow or failing
 * database never blocks or breaks the request that logged, and its errors never come back through the log.
 *
 * The row is made from what the logger was called with, which pino hands its destinations beside the line
 * (`pino.metadata`): parsing the JSON line back cost more than the rest of the sink together. A line
 * written without it (by anything but pino) is parsed.
 */
export class SystemLogSink {
  readonly [pino.symbols.needsMetadataGsym] = true;
  /** Set by pino before each write: the level, the time as written, the message, fields and logger. */
  lastLevel: number | undefined = undefined;
  lastTime: string | undefined = undefined;
  lastMsg: string | undefined = undefined;
  lastObj: object | undefined = undefined;
  lastLogger: unknown = undefined;

  private buffer: (NewSystemLogRow | PendingCall)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** A drain of full batches is queued or running: lines that arrive meanwhile join its next batch. */
  private draining = false;
  private closed = false;
  private readonly reports = new ReportGate();
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxBuffered: number;
  private readonly onError: (message: string) => void;
  /** Lines stored, and lines lost to a full buffer or a failed insert. */
  readonly counts = { written: 0, dropped: 0 };

  constructor(private readonly options: SystemLogSinkOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.maxBuffered = options.maxBuffered ?? 20_000;
    this.onError = options.onError ?? toStderr;
  }

  /** pino's destination interface: one serialized line. */
  write(line: string): boolean {
    if (this.closed) return true;
    let row: NewSystemLogRow | PendingCall | null;
    try {
      row = this.lastLevel === undefined ? toSystemLogRow(JSON.parse(line)) : this.takeCall();
    } catch {
      return true;
    }
    if (!row) return true;
    if (this.buffer.length >= this.maxBuffered) {
      this.counts.dropped++;
      return true;
    }
    this.buffer.push(row);
    if (this.buffer.length >= this.batchSize) {
      if (!this.draining) {
        this.draining = true;
        void this.enqueue(false);
      }
    } else {
      this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs).unref();
    }
    return true;
  }

  /**
   * The logger's call pino set beside this line, taken first: a call that cannot be stored must not stay
   * behind for a later line written without one. A call with an error is made into its row at once, as the
   * error is serialized on stdout (errors are rare, and can change after they are logged).
   */
  private takeCall(): NewSystemLogRow | PendingCall {
    const { lastLevel: level, lastTime, lastMsg, lastObj, lastLogger } = this;
    this.lastLevel = undefined;
    this.lastObj = undefined;
    this.lastLogger = undefined;
    const parsed = Number(lastTime);
    const time = Number.isFinite(parsed) ? parsed : Date.now();
    const fields = (lastObj ?? {}) as Record<string, unknown>;
    if ('err' in fields || 'error' in fields) {
      return callToSystemLogRow(level!, time, lastMsg, bindingsOf(lastLogger), fields);
    }
    const msg = lastMsg ?? ('msg' in fields ? fields.msg : UNSET);
    return new PendingCall(level!, time, msg, 'name' in fields ? fields.name : UNSET, lastLogger);
  }

  /** Writes everything queued so far; resolves when it is stored (or dropped). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.enqueue(true);
  }

  /** Stops taking lines and writes what is queued: call before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private enqueue(all: boolean): Promise<void> {
    this.chain = this.chain.then(() => this.drain(all));
    return this.chain;
  }

  /**
   * Full batches, and with `all` the lines queued when it starts. The lines that arrive while a batch is
   * stored wait for the next full one or their timer: storing them at once made every insert trail a small
   * one (a transaction each), and after a flush under steady load, a chain of them that never ended.
   */
  private async drain(all: boolean): Promise<void> {
    let owed = all ? this.buffer.length : 0;
    while (owed > 0 || this.buffer.length >= this.batchSize) {
      const batch = this.buffer.splice(0, this.batchSize);
      owed = Math.max(0, owed - batch.length);
      try {
        await this.options.insert(batch.map((entry) => (entry instanceof PendingCall ? entry.row() : entry)));
        this.counts.written += batch.length;
      } catch (error) {
        this.counts.dropped += batch.length;
        this.report(error);
      }
    }
    if (!all) this.draining = false;
  }

  private report(error: unknown) {
    if (!this.reports.open()) return;
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    try {
      this.onError(`system logs: a batch could not be stored (${this.counts.dropped} lines lost): ${reason}`);
    } catch {
      // Reporting is best effort.
    }
  }
}
