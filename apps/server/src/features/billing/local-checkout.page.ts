import { profilesText, type TSubscriptionPlan } from '@threadreach/contract';
import type { LocalSubscription } from '../../integrations/payments/local.provider';
import { formatDay } from './billing.service';

export const DEMO_CHECKOUT_NOTICE = 'Demo checkout — no card is charged';
export const DEMO_PORTAL_NOTICE = 'Demo billing — no card is charged';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The plan's price as the plan chooser shows it: minor units / 100 in the plan's currency. */
export function formatPlanPrice(plan: Pick<TSubscriptionPlan, 'amount' | 'currency'>): string {
  const currency = (plan.currency || 'usd').toUpperCase();
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(plan.amount / 100);
  } catch {
    return `${(plan.amount / 100).toFixed(2)} ${currency}`;
  }
}

export function planIntervalText(plan: Pick<TSubscriptionPlan, 'interval' | 'interval_count'>): string {
  if (!plan.interval) return 'one-time';
  return plan.interval_count > 1 ? `every ${plan.interval_count} ${plan.interval}s` : `per ${plan.interval}`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escape(title)}</title>
<style>
/* Text colours read at WCAG AA contrast (4.5:1) on their backgrounds. */
body{font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:48px 16px;padding:32px;border-radius:12px;max-width:460px;width:100%;box-shadow:0 1px 4px #0002}
h1{font-size:22px;margin:0 0 12px}.note{color:#495057;margin:0 0 20px;font-size:14px}
.badge{display:inline-block;background:#fff3bf;color:#8f4d00;border-radius:4px;padding:4px 10px;font-size:14px;font-weight:600;margin-bottom:16px}
.plan{border:1px solid #dee2e6;border-radius:8px;padding:16px;margin-bottom:20px}
.plan strong{font-size:18px}.price{font-size:24px;font-weight:700;margin:8px 0 4px}.muted{color:#5c636a;font-size:14px}
.actions{display:flex;gap:8px}.actions form{flex:1;margin:0}.plan form{margin:12px 0 0}
button{width:100%;padding:12px;border-radius:8px;font-size:15px;cursor:pointer;border:1px solid #dee2e6;background:#fff}
button.primary{background:#4263eb;border-color:#4263eb;color:#fff;font-weight:600}
</style></head>
<body><main>
${body}
</main></body></html>`;
}

/** The local checkout page of the embedded default: the plan, and Complete purchase or Cancel. */
export function renderLocalCheckout(action: string, plan: TSubscriptionPlan, email: string): string {
  return layout(
    'Threadreach demo checkout',
    `<span class="badge" role="status">${DEMO_CHECKOUT_NOTICE}</span>
<h1>Complete your subscription</h1>
<p class="note">This is the local checkout of the demo. Completing it activates the plan at once; no payment details are asked for and nothing is charged.</p>
<section class="plan" aria-label="Selected plan">
  <strong>${escape(plan.product_name)}</strong>
  <div class="price">${escape(formatPlanPrice(plan))} <span class="muted">${escape(planIntervalText(plan))}</span></div>
  <div>${profilesText(plan.profiles_limit)}</div>
  ${plan.description ? `<div class="muted">${escape(plan.description)}</div>` : ''}
  <div class="muted">For ${escape(email)}</div>
</section>
<div class="actions">
  <form method="post" action="${escape(action)}/complete"><button type="submit" class="primary">Complete purchase</button></form>
  <form method="post" action="${escape(action)}/cancel"><button type="submit">Cancel</button></form>
</div>`,
  );
}

/** A session that is unknown, already canceled, or not to be paid: why, and where to go instead. */
export function renderCheckoutClosed(message: string, next: { href: string; label: string }): string {
  return layout(
    'Threadreach demo checkout',
    `<span class="badge" role="status">${DEMO_CHECKOUT_NOTICE}</span>
<h1>Checkout unavailable</h1>
<p class="note">${escape(message)}</p>
<p><a href="${escape(next.href)}">${escape(next.label)}</a></p>`,
  );
}

/** What a plan on the portal page is now (renewing, cancelled with access left, or over) and its button. */
function planState(
  subscription: LocalSubscription,
  now: Date,
): { text: string; button: { path: 'cancel' | 'renew'; label: string } | null } {
  const end = subscription.currentPeriodEnd;
  if (subscription.status === 'active') {
    return end
      ? { text: `Renews on ${formatDay(end)}`, button: { path: 'cancel', label: 'Cancel plan' } }
      : { text: 'Paid once; it does not renew', button: null };
  }
  if (subscription.status === 'canceled' && end && end.getTime() > now.getTime()) {
    return {
      text: `Canceled: access until ${formatDay(end)}`,
      button: { path: 'renew', label: 'Renew plan' },
    };
  }
  return { text: 'Ended', button: null };
}

/** The local billing portal of the embedded default: the customer's plans, to cancel or renew again. */
export function renderLocalPortal(input: {
  action: string;
  subscriptions: Array<{ subscription: LocalSubscription; plan: TSubscriptionPlan | null }>;
  returnUrl: string;
  now: Date;
}): string {
  const plans = input.subscriptions.map(({ subscription, plan }) => {
    const state = planState(subscription, input.now);
    const name = plan?.product_name ?? subscription.priceId ?? 'Plan';
    return `<section class="plan" aria-label="${escape(name)}">
  <strong>${escape(name)}</strong>
  ${plan ? `<div class="price">${escape(formatPlanPrice(plan))} <span class="muted">${escape(planIntervalText(plan))}</span></div>` : ''}
  <div>${profilesText(subscription.profilesLimit)}</div>
  <div class="muted">${escape(state.text)}</div>
  ${
    state.button
      ? `<form method="post" action="${escape(`${input.action}/${state.button.path}/${encodeURIComponent(subscription.id)}`)}"><button type="submit">${state.button.label}</button></form>`
      : ''
  }
</section>`;
  });
  return layout(
    'Threadreach demo billing',
    `<span class="badge" role="status">${DEMO_PORTAL_NOTICE}</span>
<h1>Your plans</h1>
<p class="note">This is the demo's billing page. A canceled plan does not renew; you keep its profiles until the end of the period already paid for, and Renew plan makes it renew again before then.</p>
${plans.length ? plans.join('\n') : '<p class="note">You have no plans.</p>'}
<p><a href="${escape(input.returnUrl)}">Return to Threadreach</a></p>`,
  );
}

/** A portal session that is unknown or has ended. */
export function renderPortalClosed(message: string, subscriptionUrl: string): string {
  return layout(
    'Threadreach demo billing',
    `<span class="badge" role="status">${DEMO_PORTAL_NOTICE}</span>
<h1>Billing page unavailable</h1>
<p class="note">${escape(message)}</p>
<p><a href="${escape(subscriptionUrl)}">Back to your subscription</a></p>`,
  );
}
