import type { DEMO_USERS } from './demo-users';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The development provider's sign-in page: one button per demo account, or any e-mail. `typed` shows again
 * an e-mail that was not accepted, with why, so a typo can be mended where it was made.
 */
export function renderPicker(
  action: string,
  users: typeof DEMO_USERS,
  typed?: { email: string; error: string },
): string {
  const buttons = users
    .map(
      (u) => `<form method="post" action="${escape(action)}/login">
  <input type="hidden" name="email" value="${escape(u.email)}">
  <button type="submit"><span class="sr">Sign in as </span><strong>${escape(u.email)}</strong>
  <span class="role">${escape(u.role)} · ${escape(u.description)}</span></button>
</form>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>Threadreach demo sign-in</title>
<style>
/* Text colours read at WCAG AA contrast (4.5:1) on their backgrounds. */
body{font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:48px 16px;padding:32px;border-radius:12px;max-width:440px;width:100%;box-shadow:0 1px 4px #0002}
h1{font-size:22px;margin:0 0 4px}.note{color:#5c636a;margin:0 0 20px;font-size:14px}
.badge{display:inline-block;background:#fff3bf;color:#8f4d00;border-radius:4px;padding:2px 8px;font-size:12px;margin-bottom:12px}
form{margin:0 0 8px}button{width:100%;text-align:left;padding:10px 14px;border:1px solid #dee2e6;border-radius:8px;background:#fff;cursor:pointer;font-size:15px}
button:hover{border-color:#228be6}button .role{display:block;color:#5c636a;font-size:13px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.other{display:flex;gap:8px;margin-top:16px}.other input{flex:1;padding:9px;border:1px solid #dee2e6;border-radius:8px}
.other button{width:auto}.error{color:#c92a2a;margin:16px 0 0;font-size:14px}
</style></head>
<body><main>
<span class="badge">Demo mode — simulated Reddit</span>
<h1>Sign in to Threadreach</h1>
<p class="note">Development identity provider: pick a demo account. No password is needed.</p>
${buttons}
${typed ? `<p class="error" role="alert" id="email-error">${escape(typed.error)}</p>` : ''}
<form method="post" action="${escape(action)}/login" class="other">
  <input type="email" name="email" required placeholder="any other e-mail" aria-label="Other e-mail"${
    typed
      ? ` value="${escape(typed.email)}" aria-invalid="true" aria-describedby="email-error" autofocus`
      : ''
  }>
  <button type="submit">Continue</button>
</form>
<form method="post" action="${escape(action)}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;
}
