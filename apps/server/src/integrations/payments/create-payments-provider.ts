import type { Config } from '../../config/config';
import type { DbOrTx } from '../../db/client';
import { createLocalProvider } from './local.provider';
import type { PaymentsProvider } from './payments.provider';
import { createStripeProvider } from './stripe.provider';

/** Stripe when configured, otherwise the local checkout of the embedded default. */
export function createPaymentsProvider(config: Config, db: DbOrTx): PaymentsProvider {
  return config.billing.kind === 'stripe'
    ? createStripeProvider(config.billing)
    : createLocalProvider(db, { plans: config.billing.plans, publicUrl: config.publicUrl });
}
