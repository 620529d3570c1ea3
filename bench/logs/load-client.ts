/**
 * The load of the logs benchmark's write-overhead segments, in a process of its own so that the server
 * process's CPU is the server's alone: `concurrency` loops of GET `url` for `ms`, latencies sent back.
 */
export interface LoadOrder {
  url: string;
  headers: Record<string, string>;
  ms: number;
  concurrency: number;
}

export interface LoadResult {
  latencies: number[];
  elapsedMs: number;
  errors: number;
}

async function run({ url, headers, ms, concurrency }: LoadOrder): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
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
