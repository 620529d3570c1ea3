import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS } from './index';
import { type TestSim, startTestSim } from './test-support';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(async () => {
  await t.sim.close();
});

describe('connections', () => {
  it('keeps an idle connection open past the 5 s a client may reuse it for', async () => {
    const keepAlive = await new Promise<string | string[] | undefined>((resolve, reject) => {
      request(`${t.sim.url}/__sim/users/nobody`, { headers: { connection: 'keep-alive' } }, (res) => {
        res.resume();
        resolve(res.headers['keep-alive']);
      })
        .on('error', reject)
        .end();
    });
    expect(KEEP_ALIVE_MS).toBeGreaterThan(5_000);
    expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  });

  it('closes with an idle connection still open, instead of waiting for it', async () => {
    const res = await t.get('/__sim/users/nobody');
    await res.arrayBuffer();
    // Waiting for the connection would outlast the test's timeout.
    await t.sim.close();
    t = await startTestSim();
  });
});
