/**
 * The load of the logs benchmark's write-overhead segments, in a process of its own so that the server
 * process's CPU is the server's alone: `concurrency` loops of GET `url` for `ms`, latencies sent back.
 */
export interface LoadOrder {
  url: string;
  headers: Record<string, string>;
  ms: number;
  concurrency: number;
  /** Requests a second across all loops; 0 sends each as soon as the last one answered. */
  rate: number;
}

export interface LoadResult {
  latencies: number[];
  elapsedMs: number;
  errors: number;
}

async function run({ url, headers, ms, concurrency, rate }: LoadOrder): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      const every = rate > 0 ? (1000 * concurrency) / rate : 0;
      let next = started + (every * loop) / concurrency;
      while (performance.now() < until) {
        if (every) {
          const wait = next - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          next += every;
        }
        const t0 = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) errors++;
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started, errors };
}

process.on('message', (order: LoadOrder) => {
  void run(order).then((result) => process.send!(result));
});
