/** Throughput and latency quantiles of one measured call, shared by the benchmarks. */
export interface LatencySummary {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** `latencies` in ms (sorted here), `elapsedMs` the wall time they were collected in. */
export function summarize(name: string, latencies: number[], elapsedMs: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    name,
    requests: sorted.length,
    rps: sorted.length / (elapsedMs / 1000),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}
