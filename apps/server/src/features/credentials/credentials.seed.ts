import { randomBytes } from 'node:crypto';
import type { TCredentialType } from '@threadreach/contract';
import type { AppContext } from '../../context';
import { findCredentialByClientId } from './credentials.repository';
import { createCredential, readClientSecret, updateCredentialById } from './credentials.service';

const DEMO_CREDENTIALS = [
  {
    type: 'search',
    account_name: 'threadreach_search',
    client_id: 'threadreach-demo-search',
    description: 'Demo: app-only credential for discovery on the built-in Reddit simulator.',
  },
  {
    type: 'send',
    account_name: 'threadreach_send',
    client_id: 'threadreach-demo-send',
    description: 'Demo: web-app credential through which simulated Reddit accounts connect and send.',
  },
] as const;

/**
 * The embedded default's credentials: one search and one send credential for the simulator, created once
 * with random secrets. Returns them (with secrets) so the simulator, which starts empty, can register them.
 */
export async function seedDemoCredentials(
  ctx: AppContext,
): Promise<{ clientId: string; clientSecret: string; type: TCredentialType }[]> {
  const seeded = [];
  for (const demo of DEMO_CREDENTIALS) {
    let row = await findCredentialByClientId(ctx.db, demo.client_id);
    if (!row) {
      await createCredential(ctx, {
        ...demo,
        client_secret: randomBytes(24).toString('base64url'),
        enabled: true,
      });
      row = (await findCredentialByClientId(ctx.db, demo.client_id))!;
    }
    let clientSecret: string;
    try {
      clientSecret = readClientSecret(ctx, row);
    } catch {
      // The key it was sealed with is gone (DATA_DIR or SECRETS_KEYS changed): the simulator takes any
      // secret, so the demo credential simply gets a new one.
      clientSecret = randomBytes(24).toString('base64url');
      await updateCredentialById(ctx, row.id, { client_secret: clientSecret });
    }
    seeded.push({ clientId: row.clientId, clientSecret, type: row.type });
  }
  return seeded;
}
