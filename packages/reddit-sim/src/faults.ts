import { mulberry32 } from './random';

interface FaultTarget {
  /** Glob over the request path without `.json` (`*` matches anything), e.g. `/api/compose` or `/r/*`. */
  path?: string;
  clientId?: string;
  method?: string;
  /** Fire at most this many times. */
  count?: number;
  /** Fire with this probability, drawn from the simulator's seeded generator. */
  probability?: number;
}

export type FaultSpec = FaultTarget &
  (
    | { kind: 'latency'; ms: number }
    | { kind: 'status'; status?: number }
    /** The request takes effect, then the socket is destroyed without a response. */
    | { kind: 'reset' }
    | { kind: 'rate-limit'; retryAfter?: number }
  );

export type Fault = FaultSpec & { id: string; fired: number };

export interface FaultOutcome {
  latencyMs: number;
  action?:
    { kind: 'status'; status: number } | { kind: 'reset' } | { kind: 'rate-limit'; retryAfter: number };
}

export class Faults {
  private faults: Fault[] = [];
  private nextId = 1;
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = mulberry32(seed ^ 0x5eed);
  }

  add(spec: FaultSpec): string {
    validate(spec);
    const id = `f${this.nextId++}`;
    this.faults.push({ ...spec, id, fired: 0 });
    return id;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  evaluate(method: string, path: string, clientId: string | undefined): FaultOutcome {
    const outcome: FaultOutcome = { latencyMs: 0 };
    for (const fault of this.faults) {
      if (fault.count !== undefined && fault.fired >= fault.count) continue;
      if (fault.method && fault.method.toUpperCase() !== method) continue;
      if (fault.clientId && fault.clientId !== clientId) continue;
      if (fault.path && !globToRegExp(fault.path).test(path)) continue;
      if (fault.kind !== 'latency' && outcome.action) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      fault.fired++;
      if (fault.kind === 'latency') outcome.latencyMs += fault.ms;
      else if (fault.kind === 'status') outcome.action = { kind: 'status', status: fault.status ?? 503 };
      else if (fault.kind === 'reset') outcome.action = { kind: 'reset' };
      else outcome.action = { kind: 'rate-limit', retryAfter: fault.retryAfter ?? 60 };
    }
    return outcome;
  }
}

function validate(spec: FaultSpec): void {
  const kinds = ['latency', 'status', 'reset', 'rate-limit'];
  if (!kinds.includes(spec.kind))
    throw new Error(`unknown fault kind ${String(spec.kind)}; use ${kinds.join(', ')}`);
  if (spec.kind === 'latency' && !(spec.ms >= 0)) throw new Error('latency fault needs ms >= 0');
  if (spec.kind === 'status' && spec.status !== undefined && (spec.status < 400 || spec.status > 599)) {
    throw new Error('status fault needs a 4xx or 5xx status');
  }
  if (spec.probability !== undefined && !(spec.probability >= 0 && spec.probability <= 1)) {
    throw new Error('probability must be between 0 and 1');
  }
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${body}$`, 'i');
}
