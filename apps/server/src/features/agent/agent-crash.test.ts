/**
 * An agent run killed for real: a child process runs the scheduled run and SIGKILLs itself after the
 * search, after the drafts and after the queueing. The restart opens what it left: once the dead run's
 * lease is stale the retried job runs again, drafts nobody twice, sends each person at most one DM on
 * the simulator, and queues the chain's next run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startRedditSim, type RedditSim } from '@threadreach/reddit-sim';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../context';
import type { Database } from '../../db/client';
import { recordingQueue, type Enqueued } from '../../jobs/queue.test-support';
import { fixedClock } from '../../test/clock.test-support';
import { validProductInfo } from '../../test/factories';
import { addSearchCredential, buildDiscoveryProject } from '../discovery/discovery.test-support';
import { dmMessages } from '../dms/dms.table';
import { upsertProductInfo } from '../product-info/product-info.repository';
import { seededRandom } from '../sending/pacing';
import { crashConfig } from '../sending/sending-crash.test-support';
import {
  addSendCredential,
  connectAccount,
  isolatedPlace,
  runQueuedSends,
  type Place,
  type SendCredential,
} from '../sending/sending.test-support';
import { AGENT_RUN_STEPS } from './agent-run';
import { runScheduled } from './agent-run.job';
import { agentSettings } from './agent.table';

const CHILD = path.join(import.meta.dirname, 'agent-crash.test-support.ts');
const env = {
  JWT_SECRET: 'agent-crash-secret-that-is-long-enough-for-hs256',
  SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const config = crashConfig(env);
/** Monday 5 January 2026, 10:00 UTC. */
const clock = fixedClock(Date.UTC(2026, 0, 5, 10));
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Drafts per run stay below the account's day, so every send of a run goes the same day. */
const DRAFTS = 3;
let sim: RedditSim;
let place: Place;

beforeAll(async () => {
  sim = await startRedditSim({ port: 0, seed: 42, now: () => clock.t });
  place = await isolatedPlace();
}, 120_000);
afterAll(async () => {
  await sim?.close();
  await place?.drop();
});

async function open(): Promise<{ database: Database; ctx: AppContext; jobs: Enqueued[] }> {
  const database = await place.open();
  const queue = recordingQueue();
  const ctx = await createAppContext({
    config,
    database,
    queue: queue.starter,
    logger: false,
    reddit: { apiUrl: sim.url, authUrl: sim.url },
    clock,
  });
  return { database, ctx, jobs: queue.jobs };
}

async function agentProject(ctx: AppContext, credential: SendCredential) {
  const project = await buildDiscoveryProject(
    ctx.db,
    config,
    { keywords: ['customers', 'users'], subreddits: ['SaaS', 'startups'] },
    new Date(clock.t),
  );
  await upsertProductInfo(ctx.db, project.id, validProductInfo());
  await connectAccount(ctx, sim, credential, project, {
    username: 'demo_founder',
    delayRangeMin: 10,
    delayRangeMax: 20,
  });
  await ctx.db.insert(agentSettings).values({
    projectId: project.id,
    mode: 'agent',
    learningStageCompleted: true,
    isActive: true,
    dailyDmLimitPerProfile: DRAFTS,
    minIntentScore: 0,
    workingDays: [1, 2, 3, 4, 5, 6, 7],
    workingHoursStart: 0,
    workingHoursEnd: 0,
    nextRunAt: new Date(clock.t),
    updatedAt: new Date(clock.t),
  });
  return project;
}

function runChild(projectId: string, step: string): Promise<{ killed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        ...process.env,
        ...env,
        ...place.childEnv,
        CRASH_SIM_URL: sim.url,
        CRASH_NOW_MS: String(clock.t),
        CRASH_PROJECT_ID: projectId,
        CRASH_KILL_STEP: step,
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
      if (code !== 0) return reject(new Error(`agent process failed (${code ?? signal}): ${errors}`));
      resolve({ killed: false, output });
    });
  });
}

describe('an agent run killed by SIGKILL', () => {
  it('runs again after a restart without a duplicate DM, and the chain continues', async () => {
    let { database, ctx } = await open();
    const credential = await addSendCredential(ctx);
    await addSearchCredential(ctx);
    const projects = [];
    for (const _step of AGENT_RUN_STEPS) projects.push(await agentProject(ctx, credential));
    await database.close();

    for (const [i, step] of AGENT_RUN_STEPS.entries()) {
      // A day of its own per kill: the sends of one run never mix with another's.
      clock.t += DAY;
      const project = projects[i]!;
      ({ database, ctx } = await open());
      await ctx.db
        .update(agentSettings)
        .set({ nextRunAt: new Date(clock.t) })
        .where(eq(agentSettings.projectId, project.id));
      await database.close();

      const child = await runChild(project.id, step);
      expect(child.killed, child.output).toBe(true);
      expect(child.output).toContain(`step ${step}`);

      // The restart: pg-boss runs the expired job again, after the dead run's lease went stale.
      clock.t += 16 * 60_000;
      const since = clock.t;
      const restarted = await open();
      await runScheduled(restarted.ctx, project.id);
      await runQueuedSends(restarted.ctx, clock, project.id, {
        random: seededRandom(i + 1),
        until: since + 12 * HOUR,
      });
      const dms = await restarted.ctx.db
        .select()
        .from(dmMessages)
        .where(eq(dmMessages.projectId, project.id));
      const people = dms.map((d) => d.recipientKey);
      expect(new Set(people).size, step).toBe(people.length);
      expect(dms.length, step).toBeLessThanOrEqual(DRAFTS);
      const received = sim.inspect
        .messages()
        .filter((m) => m.from === 'demo_founder' && m.createdMs >= since - 16 * 60_000);
      const perPerson = new Map<string, number>();
      for (const m of received)
        perPerson.set(m.to.toLowerCase(), (perPerson.get(m.to.toLowerCase()) ?? 0) + 1);
      expect(
        [...perPerson.values()].every((n) => n === 1),
        step,
      ).toBe(true);
      expect(received.length, step).toBe(dms.filter((d) => d.state === 'sent').length);
      expect(received.length, step).toBeGreaterThan(0);
      const next = restarted.jobs.filter((j) => j.name === 'agent-run');
      expect(next, step).toHaveLength(1);
      expect(next[0]!.options.startAfter!.getTime(), step).toBe(since + 2 * HOUR);
      await restarted.database.close();
    }
  }, 300_000);
});
