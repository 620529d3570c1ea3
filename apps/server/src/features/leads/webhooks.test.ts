import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  ZWebhookPayload,
  type TWebhookPayload,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { reencryptSecrets } from '../../security/reencrypt-secrets';
import { SecretBox } from '../../security/secrets';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { deliverLeadWebhookJob, scanLeadWebhooksJob } from './deliver-lead-webhooks.job';
import { leads, projectWebhooks } from './leads.table';
import { buildLead } from './leads.test-support';
import { checkWebhookUrl } from './webhook.sender';
import {
  deliverProjectWebhook,
  projectsDueForDelivery,
  updateWebhook,
  WEBHOOK_BATCH_SIZE,
} from './webhooks.service';

/** A webhook receiver on this machine: records each request's headers and raw body. */
interface Receiver {
  url: string;
  requests: { headers: IncomingHttpHeaders; body: string }[];
  status: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { requests: [], status: 200 } as unknown as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/threadreach`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** What a receiver does to trust a delivery: the HMAC over "<timestamp>.<raw body>" with the secret. */
function verifies(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const timestamp = headers[WEBHOOK_TIMESTAMP_HEADER];
  const signature = headers[WEBHOOK_SIGNATURE_HEADER];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return (
    expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
  );
}

let t: TestApp;
let receiver: Receiver;
const logLines: string[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
  t = await createTestApp({ logger: { stream, level: 'trace' } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.status = 200;
});

type Project = Awaited<ReturnType<typeof buildProject>>;
const newProject = () => buildProject(t.ctx.db, t.config);
const webhookUrl = (p: Project) => `/api/v1/projects/${p.id}/webhook`;

function put(project: Project, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: webhookUrl(project), headers: project.owner.auth, payload });
}

const T0 = Date.parse('2030-05-01T12:00:00Z');
const ctxAt = (ms: number): AppContext => ({ ...t.ctx, clock: fixedClock(ms) });

async function webhookRow(projectId: string) {
  const [row] = await t.ctx.db.select().from(projectWebhooks).where(eq(projectWebhooks.projectId, projectId));
  return row!;
}

describe('setting the webhook', () => {
  it('refuses URLs that are not https or that reach private addresses, and stores nothing', async () => {
    const project = await newProject();
    const cases: [string, string][] = [
      ['not a url', 'invalid_webhook_url'],
      ['ftp://127.0.0.1/hook', 'webhook_https_required'],
      ['http://hooks.example.com/lead', 'webhook_https_required'],
      ['http://10.0.0.7/hook', 'webhook_https_required'],
      ['https://user:pw@127.0.0.1/hook', 'invalid_webhook_url'],
      ['https://10.0.0.7/hook', 'webhook_target_refused'],
      ['https://192.168.1.20:8443/hook', 'webhook_target_refused'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_target_refused'],
      ['https://[fd00::1]/hook', 'webhook_target_refused'],
      ['https://[::ffff:10.0.0.1]/hook', 'webhook_target_refused'],
      ['https://100.64.0.1/hook', 'webhook_target_refused'],
    ];
    for (const [url, code] of cases) {
      const res = await put(project, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe(code);
      expect(typeof res.json().detail).toBe('string');
    }
    expect((await put(project, { url: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: webhookUrl(project), headers: project.owner.auth })).json()).toEqual({
      url: null,
      enabled: false,
      secret_last4: null,
      last_delivery_at: null,
      last_status: null,
    });
  });

  it('in production takes https to public addresses only, this machine included', async () => {
    const refused = async (url: string) =>
      checkWebhookUrl(url, true).then(
        () => null,
        (error: { code: string }) => error.code,
      );
    expect(await refused('http://127.0.0.1:8080/hook')).toBe('webhook_https_required');
    expect(await refused('https://127.0.0.1/hook')).toBe('webhook_target_refused');
    expect(await refused('https://[::1]/hook')).toBe('webhook_target_refused');
    // A name is resolved: one that points at this machine is refused like the address.
    expect(await refused('https://localhost/hook')).toBe('webhook_target_refused');
    expect(await refused('https://93.184.215.14/hook')).toBeNull();
    // Outside production, this machine may receive, over http too.
    expect((await checkWebhookUrl('http://localhost:3000/hook', false)).port).toBe('3000');
  });

  it('shows the signing secret only in the answer that creates or rotates it, and never logs it', async () => {
    const project = await newProject();
    const created = await put(project, { url: receiver.url });
    expect(created.statusCode, created.body).toBe(200);
    const { secret } = created.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.json()).toEqual({
      url: receiver.url,
      enabled: true,
      secret,
      secret_last4: secret.slice(-4),
      last_delivery_at: null,
      last_status: null,
    });

    const read = await t.app.inject({ url: webhookUrl(project), headers: project.owner.auth });
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.json().secret_last4).toBe(secret.slice(-4));
    const changed = await put(project, { url: `${receiver.url}?v=2`, enabled: false });
    expect(changed.json()).not.toHaveProperty('secret');
    expect(changed.json()).toMatchObject({ url: `${receiver.url}?v=2`, enabled: false });

    const rotated = await put(project, { url: receiver.url, rotate_secret: true });
    const newSecret = rotated.json().secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);

    const row = await webhookRow(project.id);
    expect(row.secretCiphertext).not.toContain(newSecret);
    expect(
      t.ctx.secrets.decrypt(row.secretCiphertext, {
        table: 'project_webhooks',
        rowId: project.id,
        column: 'secret_ciphertext',
      }),
    ).toBe(newSecret);

    const test = await t.app.inject({
      method: 'POST',
      url: `${webhookUrl(project)}/test`,
      headers: project.owner.auth,
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(logLines.length).toBeGreaterThan(0);
    const logs = logLines.join('');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(newSecret);
    expect(logs).not.toContain('/hooks/threadreach');
  });

  it('removes the webhook when the URL is null', async () => {
    const project = await newProject();
    await put(project, { url: receiver.url });
    const removed = await put(project, { url: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ url: null, enabled: false, secret_last4: null });
    const [row] = await t.ctx.db
      .select()
      .from(projectWebhooks)
      .where(eq(projectWebhooks.projectId, project.id));
    expect(row).toBeUndefined();
  });

  it('sends a signed test delivery and reports what the receiver answered', async () => {
    const project = await newProject();
    const test = () =>
      t.app.inject({ method: 'POST', url: `${webhookUrl(project)}/test`, headers: project.owner.auth });
    const none = await test();
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: 'No webhook is set for this project', code: 'not_found' });

    const { secret } = (await put(project, { url: receiver.url })).json();
    const ok = await test();
    expect(ok.json()).toEqual({ message: 'Test delivery answered 200' });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(verifies(secret, request!.headers, request!.body)).toBe(true);
    expect(ZWebhookPayload.parse(JSON.parse(request!.body))).toMatchObject({
      event: 'leads.created',
      project_id: project.id,
      leads: [],
    });

    receiver.status = 500;
    const failed = await test();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({
      detail: 'Test delivery failed: the webhook answered 500',
      code: 'webhook_failed',
    });
    const read = await t.app.inject({ url: webhookUrl(project), headers: project.owner.auth });
    expect(read.json()).toMatchObject({ last_status: '500' });
    expect(read.json().last_delivery_at).not.toBeNull();

    // As if the address behind the URL had changed since it was saved: refused without connecting.
    await t.ctx.db
      .update(projectWebhooks)
      .set({ url: 'https://10.9.9.9/hook' })
      .where(eq(projectWebhooks.projectId, project.id));
    const refused = await test();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail: 'Webhook URL must resolve to a public address',
      code: 'webhook_target_refused',
    });
  });
});

describe('delivering new leads', () => {
  async function projectWithWebhook() {
    const project = await newProject();
    const { secret } = await updateWebhook(ctxAt(T0), project.id, {
      url: receiver.url,
      enabled: true,
      rotate_secret: false,
    });
    return { project, secret: secret! };
  }

  const payloadsOf = (r: Receiver) => r.requests.map((q) => ZWebhookPayload.parse(JSON.parse(q.body)));

  it('POSTs leads found since the webhook was set, signed, at most 100 per request, each once', async () => {
    const { project, secret } = await projectWithWebhook();
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 - 60_000) });
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000), dismissedAt: new Date(T0 + 2000) });
    const fresh = [];
    for (let i = 0; i < WEBHOOK_BATCH_SIZE + 20; i++) {
      fresh.push(
        await buildLead(t.ctx.db, project.id, {
          kind: i % 2 ? 'comment' : 'post',
          foundAt: new Date(T0 + 1000 + i),
          intentScore: i % 100,
        }),
      );
    }

    const report = await deliverProjectWebhook(ctxAt(T0 + 60_000), project.id);
    expect(report).toEqual({ delivered: WEBHOOK_BATCH_SIZE + 20, status: '200' });
    expect(receiver.requests).toHaveLength(2);
    for (const { headers, body } of receiver.requests) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers[WEBHOOK_TIMESTAMP_HEADER]).toBe(String(Math.floor((T0 + 60_000) / 1000)));
      expect(verifies(secret, headers, body)).toBe(true);
      expect(verifies(secret, headers, `${body} `)).toBe(false);
    }
    const payloads: TWebhookPayload[] = payloadsOf(receiver);
    expect(payloads.map((p) => p.leads.length)).toEqual([WEBHOOK_BATCH_SIZE, 20]);
    const sent = payloads.flatMap((p) => p.leads);
    expect(sent.map((l) => l.id)).toEqual(fresh.map((l) => l.id));
    expect(sent[1]).toEqual({
      kind: 'comment',
      id: fresh[1]!.id,
      reddit_id: fresh[1]!.itemName,
      url: `https://www.reddit.com${fresh[1]!.item.permalink}`,
      author: fresh[1]!.author,
      subreddit: 'saas',
      title: fresh[1]!.item.title,
      content: fresh[1]!.item.body,
      matched_keywords: ['crm'],
      intent_score: 1,
      intent_reasons: ['asks for a recommendation'],
      created_utc: fresh[1]!.itemCreatedAt.toISOString(),
    });

    const rows = await t.ctx.db.select().from(leads).where(eq(leads.projectId, project.id));
    expect(rows.filter((r) => r.deliveredAt !== null)).toHaveLength(fresh.length);
    expect(await webhookRow(project.id)).toMatchObject({
      lastStatus: '200',
      failedAttempts: 0,
      nextAttemptAt: null,
    });

    receiver.requests.length = 0;
    expect(await deliverProjectWebhook(ctxAt(T0 + 120_000), project.id)).toEqual({
      delivered: 0,
      status: null,
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('backs off after a failure, twice as long each time, and delivers once the receiver answers', async () => {
    const { project, secret } = await projectWithWebhook();
    const lead = await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000) });
    receiver.status = 500;

    const t1 = T0 + 60_000;
    expect(await deliverProjectWebhook(ctxAt(t1), project.id)).toEqual({ delivered: 0, status: '500' });
    expect(await webhookRow(project.id)).toMatchObject({
      lastStatus: '500',
      lastDeliveryAt: new Date(t1),
      failedAttempts: 1,
      nextAttemptAt: new Date(t1 + 60_000),
    });
    expect(await projectsDueForDelivery(ctxAt(t1 + 30_000), 10_000)).not.toContain(project.id);
    expect(await deliverProjectWebhook(ctxAt(t1 + 30_000), project.id)).toEqual({
      delivered: 0,
      status: null,
    });
    expect(receiver.requests).toHaveLength(1);

    const t2 = t1 + 60_000;
    expect(await projectsDueForDelivery(ctxAt(t2), 10_000)).toContain(project.id);
    await deliverProjectWebhook(ctxAt(t2), project.id);
    expect(await webhookRow(project.id)).toMatchObject({
      failedAttempts: 2,
      nextAttemptAt: new Date(t2 + 120_000),
    });
    const [undelivered] = await t.ctx.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(undelivered!.deliveredAt).toBeNull();

    receiver.status = 204;
    const t3 = t2 + 120_000;
    expect(await deliverProjectWebhook(ctxAt(t3), project.id)).toEqual({ delivered: 1, status: '204' });
    expect(receiver.requests).toHaveLength(3);
    const last = receiver.requests[2]!;
    expect(verifies(secret, last.headers, last.body)).toBe(true);
    expect(await webhookRow(project.id)).toMatchObject({
      lastStatus: '204',
      failedAttempts: 0,
      nextAttemptAt: null,
    });
    expect(await projectsDueForDelivery(ctxAt(t3 + 60_000), 10_000)).not.toContain(project.id);
  });

  it('checks the target again when delivering and never connects to a private address', async () => {
    const project = await newProject();
    await updateWebhook(ctxAt(T0), project.id, { url: receiver.url, enabled: true, rotate_secret: false });
    // As if the address behind the URL had changed since it was saved.
    await t.ctx.db
      .update(projectWebhooks)
      .set({ url: 'https://10.1.2.3/hook' })
      .where(eq(projectWebhooks.projectId, project.id));
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000) });
    const report = await deliverProjectWebhook(ctxAt(T0 + 60_000), project.id);
    expect(report.delivered).toBe(0);
    expect(report.status).toMatch(/^refused/);
    expect(await webhookRow(project.id)).toMatchObject({ failedAttempts: 1 });
    // The outbound guard of the test run fails this test if a connection to 10.1.2.3 was attempted.
  });

  it('delivers nothing for a disabled webhook, and from the moment it is enabled again', async () => {
    const project = await newProject();
    await updateWebhook(ctxAt(T0), project.id, { url: receiver.url, enabled: false, rotate_secret: false });
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000) });
    expect(await projectsDueForDelivery(ctxAt(T0 + 60_000), 10_000)).not.toContain(project.id);
    expect((await deliverProjectWebhook(ctxAt(T0 + 60_000), project.id)).delivered).toBe(0);

    await updateWebhook(ctxAt(T0 + 120_000), project.id, {
      url: receiver.url,
      enabled: true,
      rotate_secret: false,
    });
    expect(await projectsDueForDelivery(ctxAt(T0 + 130_000), 10_000)).not.toContain(project.id);
    const later = await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 125_000) });
    expect(await projectsDueForDelivery(ctxAt(T0 + 130_000), 10_000)).toContain(project.id);
    await deliverProjectWebhook(ctxAt(T0 + 130_000), project.id);
    expect(payloadsOf(receiver).flatMap((p) => p.leads.map((l) => l.id))).toEqual([later.id]);
  });

  it('scans every minute and queues one delivery per project with leads waiting', async () => {
    const { project } = await projectWithWebhook();
    const idle = await projectWithWebhook();
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000) });
    const queued: { name: string; data: unknown; key: unknown }[] = [];
    const queue = {
      enqueue: async (job: { name: string }, data: unknown, options?: { singletonKey?: string }) => {
        queued.push({ name: job.name, data, key: options?.singletonKey });
        return 'job-id';
      },
    } as unknown as NonNullable<AppContext['queue']>;
    await scanLeadWebhooksJob.handler({ ...ctxAt(T0 + 60_000), queue }, {});
    expect(scanLeadWebhooksJob.cron).toBe('* * * * *');
    expect(queued).toContainEqual({
      name: deliverLeadWebhookJob.name,
      data: { projectId: project.id },
      key: project.id,
    });
    expect(queued.map((q) => q.key)).not.toContain(idle.project.id);
    expect(receiver.requests).toHaveLength(0);
  });

  it('keeps signing with the same secret after the encryption keys rotate', async () => {
    const { project, secret } = await projectWithWebhook();
    await buildLead(t.ctx.db, project.id, { foundAt: new Date(T0 + 1000) });
    const newKey = { id: 'k-webhook', key: randomBytes(32) };
    const rotated = new SecretBox([newKey, ...t.config.secretKeys]);
    await reencryptSecrets(t.ctx.db, rotated);
    expect((await webhookRow(project.id)).secretCiphertext.startsWith('k-webhook.')).toBe(true);
    await deliverProjectWebhook({ ...ctxAt(T0 + 60_000), secrets: rotated }, project.id);
    const [request] = receiver.requests;
    expect(verifies(secret, request!.headers, request!.body)).toBe(true);
    // Back on this app's own key for whatever runs next.
    await reencryptSecrets(t.ctx.db, new SecretBox([...t.config.secretKeys, newKey]));
  });
});
