/**
 * The support chat widget's API: the script at SUPPORT_CHAT_SCRIPT_URL defines `window.SupportChat` with
 * these three calls (see the README's "Support chat").
 */
export interface TSupportChatWidget {
  boot(user: { email: string }): void;
  update(user: { email: string }): void;
  shutdown(): void;
}

declare global {
  interface Window {
    SupportChat?: TSupportChatWidget;
  }
}

/** How long the widget's global is waited for, and how often it is looked for (spec section 9). */
export const SUPPORT_CHAT_WAIT_MS = 10_000;
export const SUPPORT_CHAT_CHECK_MS = 100;
export const SUPPORT_CHAT_SCRIPT_ID = 'support-chat-script';

/** Adds the widget's script to the page once. */
export function injectSupportChatScript(url: string): void {
  if (document.getElementById(SUPPORT_CHAT_SCRIPT_ID)) return;
  const script = document.createElement('script');
  script.id = SUPPORT_CHAT_SCRIPT_ID;
  script.src = url;
  script.async = true;
  document.head.appendChild(script);
}

function widgetOnPage(): TSupportChatWidget | null {
  const widget = window.SupportChat;
  return widget && typeof widget.boot === 'function' ? widget : null;
}

/**
 * Calls `onReady` with the widget as soon as its global exists, checking every 100 ms for up to 10 s.
 * Returns the cancel function.
 */
export function waitForSupportChat(
  onReady: (widget: TSupportChatWidget) => void,
  onTimeout: () => void,
): () => void {
  const ready = widgetOnPage();
  if (ready) {
    onReady(ready);
    return () => {};
  }
  let checks = 0;
  const maxChecks = SUPPORT_CHAT_WAIT_MS / SUPPORT_CHAT_CHECK_MS;
  const timer = setInterval(() => {
    checks++;
    const widget = widgetOnPage();
    if (widget) {
      clearInterval(timer);
      onReady(widget);
    } else if (checks >= maxChecks) {
      clearInterval(timer);
      onTimeout();
    }
  }, SUPPORT_CHAT_CHECK_MS);
  return () => clearInterval(timer);
}
