import { useEffect, useRef, useState } from 'react';
import { logger } from '../../lib/logger';
import { useAuth, usePublicConfig } from '../auth';
import { injectSupportChatScript, waitForSupportChat, type TSupportChatWidget } from './support-chat-widget';

/**
 * The support chat for signed-in users when a widget script is configured: loads the script, boots the
 * widget with the user's e-mail, updates it when the e-mail changes, and shuts it down on logout or unmount.
 */
export function SupportChat() {
  const { isAuthenticated, user } = useAuth();
  const config = usePublicConfig();
  const scriptUrl = config.data?.support_chat_script_url ?? null;
  const email = isAuthenticated ? (user?.email ?? null) : null;
  const active = Boolean(scriptUrl && isAuthenticated);
  const [widget, setWidget] = useState<TSupportChatWidget | null>(null);
  /** The e-mail the widget was booted or last updated with; null while it is not booted. */
  const bootedWith = useRef<string | null>(null);

  useEffect(() => {
    if (!active || !scriptUrl) return;
    injectSupportChatScript(scriptUrl);
    const cancel = waitForSupportChat(setWidget, () =>
      logger.warn(`Support chat did not load from ${scriptUrl} within 10 s`),
    );
    return () => {
      cancel();
      setWidget(null);
      if (bootedWith.current !== null) {
        bootedWith.current = null;
        window.SupportChat?.shutdown();
      }
    };
  }, [active, scriptUrl]);

  useEffect(() => {
    if (!widget || !email || bootedWith.current === email) return;
    if (bootedWith.current === null) widget.boot({ email });
    else widget.update({ email });
    bootedWith.current = email;
  }, [widget, email]);

  return null;
}
