/**
 * Crash safety of sending: the sending process dies at every step boundary (before the claim, after
 * the claim, after Reddit answered, before the outcome is marked), on the simulator with its `reset`
 * fault (the compose takes effect, then the connection is cut). After each death, recovery runs as the
 * workers do (the sweep, each account's reconcile from its sent messages, the due sends), and the
 * simulator's record of what it actually received is checked: every DM delivered exactly once, none
 * lost.
 *
 * Two ways of dying, honestly named:
 * - 100 iterations in this process (ITERATIONS): the "kill" is an error thrown from the step hook, which
 *   skips all later code of that send and of the rest of the batch (a transaction open at that moment
 *   rolls back, as the database does for a dead connection); nothing of the sender's memory is used
 *   afterwards, only the database and the simulator.
 * - 4 real processes (CHILD_RUNS, one per boundary; set SENDING_CRASH_CHILD_RUNS for more): a child
 *   process (node + tsx, the same database: a PGlite directory, or PostgreSQL with DATABASE_URL)
 *   SIGKILLs itself at the boundary; the parent opens the database again and recovers.
 * A hundred child processes take minutes here (each starts a TypeScript runtime and opens the
 * database), too slow for every run of the suite.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startRedditSim, type RedditSim } from '@threadreach/reddit-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject } from '../../test/factories';
import type { DmMessageRow } from '../dms/dms.table';
import { seededRandom } from './pacing';
import { SEND_STEPS, type SendStep } from './send-attempt';
import { crashConfig, crashContext } from './sending-crash.test-support';
import { queueProjectDms, sendDmNow } from './sending.service';
import {
  addSendCredential,
  buildDm,
  connectAccount,
  dmsOf,
  isolatedPlace,
  recipientPool,
  recoverSends,
  runQueuedSends,
  T0,
  type Place,
  type RecipientPool,
  type SendCredential,
} from './sending.test-support';

const ITERATIONS = 100;
const CHILD_RUNS = Number(process.env.SENDING_CRASH_CHILD_RUNS ?? SEND_STEPS.length);
const DMS_PER_RUN = 3;
const CHILD = path.join(import.meta.dirname, 'sending-crash.test-support.ts');
const env = {
  JWT_SECRET: 'send-crash-secret-that-is-long-enough-for-hs256',
  SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const config = crashConfig(env);

/** The process "dies" here: thrown from the step hook, caught only by the test. */
class Killed extends Error {}

const clock = fixedClock(T0);
let sim: RedditSim;
let people: RecipientPool;
const places: Place[] = [];

beforeAll(async () => {
  sim = await startRedditSim({ port: 0, seed: 42, now: () => clock.t });
  people = await recipientPool();
}, 120_000);
afterAll(async () => {
  await sim?.close();
  for (const p of places) await p.drop();
});

/** What the simulator received for these DMs: how many composes carried each one's text. */
function deliveries(dms: DmMessageRow[]): number[] {
  const received = sim.inspect.messages();
  return dms.map((dm) => received.filter((m) => m.body === dm.messageContent).length);
}

async function workspace(ctx: AppContext, credential: SendCredential, i: number) {
  const project = await buildProject(ctx.db, config);
  await connectAccount(ctx, sim, credential, project, {
    username: i % 2 === 0 ? 'demo_founder' : 'growth_marketer',
    delayRangeMin: 10,
    delayRangeMax: 20,
  });
  const dms: DmMessageRow[] = [];
  for (let k = 0; k < DMS_PER_RUN; k++) {
    const to = people.accepting[(i * DMS_PER_RUN + k) % people.accepting.length]!;
    dms.push(await buildDm(ctx.db, project, { recipient: to }));
  }
  return { project, dms };
}

describe('sending killed at every step boundary', () => {
  it(`delivers every DM exactly once in ${ITERATIONS} in-process kills with the reset fault`, async () => {
    const place = await isolatedPlace();
    places.push(place);
    const database = await place.open();
    const ctx = await crashContext(config, database, sim.url, clock);
    const credential = await addSendCredential(ctx);
    const random = seededRandom(7);
    const killedAt: Record<string, number> = {};
    let resets = 0;
    const settledBy = { confirmed: 0, requeued: 0 };
    const all: DmMessageRow[] = [];
    try {
      for (let i = 0; i < ITERATIONS; i++) {
        clock.t += 30 * 60_000;
        const boundary = SEND_STEPS[i % SEND_STEPS.length]!;
        const victim = Math.floor(i / SEND_STEPS.length) % DMS_PER_RUN;
        const withReset = Math.floor(i / 12) % 2 === 1;
        const { project, dms } = await workspace(ctx, credential, i);
        all.push(...dms);
        await queueProjectDms(ctx, project.id, { random });
        const onStep = (step: SendStep, dmId: string) => {
          if (dmId !== dms[victim]!.id) return;
          if (withReset && step === 'after-claim') {
            sim.faults.add({ kind: 'reset', path: '/api/compose', count: 1 });
            resets++;
          }
          if (step === boundary) throw new Killed(`killed ${step}`);
        };
        await expect(runQueuedSends(ctx, clock, project.id, { random, onStep })).rejects.toThrow(Killed);
        killedAt[boundary] = (killedAt[boundary] ?? 0) + 1;
        // The process is gone; what it left is recovered from the database and Reddit.
        const recovery = await recoverSends(ctx, clock, project.id, random);
        settledBy.confirmed += recovery.confirmed;
        settledBy.requeued += recovery.requeued;
        sim.faults.clear();
        const rows = await dmsOf(ctx.db, project.id);
        expect(
          rows.map((r) => r.state),
          `iteration ${i} (${boundary})`,
        ).toEqual(['sent', 'sent', 'sent']);
        expect(deliveries(dms), `iteration ${i} (${boundary}, reset ${withReset})`).toEqual([1, 1, 1]);
      }
    } finally {
      await database.close();
    }
    const counts = deliveries(all);
    const duplicates = counts.filter((n) => n > 1).length;
    const lost = counts.filter((n) => n === 0).length;
    expect({ dms: all.length, duplicates, lost }).toEqual({
      dms: ITERATIONS * DMS_PER_RUN,
      duplicates: 0,
      lost: 0,
    });
    expect(killedAt).toEqual({
      'before-claim': 25,
      'after-claim': 25,
      'after-reddit': 25,
      'before-mark-sent': 25,
    });
    console.info(
      `crash (in-process): ${ITERATIONS} kills ${JSON.stringify(killedAt)}, ${all.length} DMs, ${resets} composes reset, ` +
        `${settledBy.confirmed} confirmed from the sent messages, ${settledBy.requeued} sent again after not delivered, ` +
        `${duplicates} duplicates, ${lost} lost`,
    );
  }, 600_000);

  it(
    `delivers every DM exactly once when a child process is SIGKILLed at each boundary (${CHILD_RUNS} runs)`,
    async () => {
      const place = await isolatedPlace();
      places.push(place);
      const random = seededRandom(11);
      clock.t += 30 * 60_000;
      // The world, written before any sender runs: one workspace per run.
      let database: Database = await place.open();
      let ctx = await crashContext(config, database, sim.url, clock);
      const credential = await addSendCredential(ctx);
      const runs = [];
      for (let run = 0; run < CHILD_RUNS; run++) runs.push(await workspace(ctx, credential, 1000 + run));
      await database.close();

      const killedAt: string[] = [];
      for (const [run, { project, dms }] of runs.entries()) {
        clock.t += 60_000;
        const boundary = SEND_STEPS[run % SEND_STEPS.length]!;
        // The run's first compose is cut after it took effect; the sender dies at its second DM.
        sim.faults.add({ kind: 'reset', path: '/api/compose', count: 1 });
        const child = await runChild(place, {
          CRASH_PROJECT_ID: project.id,
          CRASH_DM_IDS: dms.map((d) => d.id).join(','),
          CRASH_KILL_STEP: boundary,
          CRASH_KILL_DM: dms[1]!.id,
        });
        sim.faults.clear();
        expect(child.killed, child.output).toBe(true);
        expect(child.output).toContain(`step ${boundary} ${dms[1]!.id}`);
        expect(child.output).not.toContain(`step before-claim ${dms[2]!.id}`);
        killedAt.push(boundary);
      }

      // The restart: a new process opens what the killed ones left and recovers.
      database = await place.open();
      ctx = await crashContext(config, database, sim.url, clock);
      const projectIds = runs.map((r) => r.project.id);
      const recovery = await recoverSends(ctx, clock, projectIds, random);
      // DMs the dead processes never reached are still unsent: their person sends them again.
      for (const id of projectIds) {
        for (const dm of (await dmsOf(ctx.db, id)).filter((d) => d.state === 'approved')) {
          await sendDmNow(ctx, id, { dmId: dm.id });
        }
      }
      await recoverSends(ctx, clock, projectIds, random);
      for (const [run, { project, dms }] of runs.entries()) {
        const rows = await dmsOf(ctx.db, project.id);
        expect(
          rows.map((r) => r.state),
          `run ${run}`,
        ).toEqual(['sent', 'sent', 'sent']);
        expect(deliveries(dms), `run ${run}`).toEqual([1, 1, 1]);
      }
      await database.close();
      const counts = deliveries(runs.flatMap((r) => r.dms));
      const duplicates = counts.filter((n) => n > 1).length;
      const lost = counts.filter((n) => n === 0).length;
      expect({ dms: counts.length, duplicates, lost }).toEqual({
        dms: CHILD_RUNS * DMS_PER_RUN,
        duplicates: 0,
        lost: 0,
      });
      console.info(
        `crash (SIGKILL): ${CHILD_RUNS} child processes killed at ${killedAt.join(', ')}; ` +
          `${recovery.confirmed} confirmed from the sent messages, ${recovery.requeued} sent again after not delivered, ` +
          `${duplicates} duplicates, ${lost} lost`,
      );
    },
    120_000 + CHILD_RUNS * 60_000,
  );
});

/** Runs the sender in a child process with the same database; resolves once it exited or was killed. */
function runChild(place: Place, extra: Record<string, string>): Promise<{ killed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        ...process.env,
        ...env,
        ...place.childEnv,
        CRASH_SIM_URL: sim.url,
        CRASH_NOW_MS: String(clock.t),
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') return resolve({ killed: true, output });
      if (code !== 0) return reject(new Error(`sender process failed (${code ?? signal}): ${errors}`));
      resolve({ killed: false, output });
    });
  });
}
