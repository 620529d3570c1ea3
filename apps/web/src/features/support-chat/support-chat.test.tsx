import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { systemEndpoints, type TPublicConfig } from '@threadreach/contract';
import { AppProviders } from '../../app/app-providers';
import { removeToken, setToken } from '../../lib/token-storage';
import { mockEndpoint } from '../../test/api-mock.test-support';
import { testQueryClient } from '../../test/render-app';
import { makeToken } from '../../test/tokens';
import { SupportChat } from './support-chat';
import { SUPPORT_CHAT_SCRIPT_ID, type TSupportChatWidget } from './support-chat-widget';

const SCRIPT_URL = 'https://chat.example.test/widget.js';

/** A widget that records what the app calls, as the local test script does in the browser test. */
function recordingWidget() {
  const calls: string[] = [];
  const widget: TSupportChatWidget = {
    boot: (user) => calls.push(`boot ${user.email}`),
    update: (user) => calls.push(`update ${user.email}`),
    shutdown: () => calls.push('shutdown'),
  };
  return { calls, widget };
}

function config(url: string | null): TPublicConfig {
  return {
    demo_mode: false,
    main_app_url: null,
    support_chat_script_url: url,
    reddit_web_url: 'https://www.reddit.com',
    dm_expiry_days: 14,
  };
}

function renderChat() {
  return render(
    <AppProviders queryClient={testQueryClient()}>
      <SupportChat />
    </AppProviders>,
  );
}

/** Lets the config request finish and moves the fake clock on. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  delete window.SupportChat;
  document.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.remove();
});

describe('support chat', () => {
  it('loads the script for a signed-in user, boots when the widget appears, updates, and shuts down on logout', async () => {
    mockEndpoint(systemEndpoints.publicConfig, config(SCRIPT_URL));
    setToken(makeToken({ email: 'ann@example.com' }));
    renderChat();
    await advance(0);
    const script = document.getElementById(SUPPORT_CHAT_SCRIPT_ID) as HTMLScriptElement;
    expect(script.src).toBe(SCRIPT_URL);
    expect(script.async).toBe(true);

    // The script defines its global a while later; it is looked for every 100 ms.
    await advance(1_000);
    const { calls, widget } = recordingWidget();
    window.SupportChat = widget;
    expect(calls).toEqual([]);
    await advance(100);
    expect(calls).toEqual(['boot ann@example.com']);

    act(() => void setToken(makeToken({ email: 'ann.new@example.com' })));
    await advance(0);
    expect(calls).toEqual(['boot ann@example.com', 'update ann.new@example.com']);

    act(() => removeToken());
    await advance(0);
    expect(calls).toEqual(['boot ann@example.com', 'update ann.new@example.com', 'shutdown']);
  });

  it('shuts the widget down when the app unmounts', async () => {
    mockEndpoint(systemEndpoints.publicConfig, config(SCRIPT_URL));
    const { calls, widget } = recordingWidget();
    window.SupportChat = widget;
    setToken(makeToken({ email: 'bo@example.com' }));
    const view = renderChat();
    await advance(0);
    expect(calls).toEqual(['boot bo@example.com']);
    view.unmount();
    expect(calls).toEqual(['boot bo@example.com', 'shutdown']);
  });

  it('waits 10 s for the widget and then gives up', async () => {
    mockEndpoint(systemEndpoints.publicConfig, config(SCRIPT_URL));
    setToken(makeToken());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderChat();
    await advance(9_900);
    expect(warn).not.toHaveBeenCalled();
    await advance(100);
    expect(warn).toHaveBeenCalledTimes(1);
    const { calls, widget } = recordingWidget();
    window.SupportChat = widget;
    await advance(5_000);
    expect(calls).toEqual([]);
  });

  it('boots a widget that appears just before the 10 s are up', async () => {
    mockEndpoint(systemEndpoints.publicConfig, config(SCRIPT_URL));
    setToken(makeToken({ email: 'cy@example.com' }));
    renderChat();
    await advance(9_850);
    const { calls, widget } = recordingWidget();
    window.SupportChat = widget;
    await advance(100);
    expect(calls).toEqual(['boot cy@example.com']);
  });

  it('loads nothing without a script URL or for a signed-out visitor', async () => {
    mockEndpoint(systemEndpoints.publicConfig, config(null));
    setToken(makeToken());
    const view = renderChat();
    await advance(1_000);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)).toBeNull();
    view.unmount();

    mockEndpoint(systemEndpoints.publicConfig, config(SCRIPT_URL));
    removeToken();
    renderChat();
    await advance(1_000);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)).toBeNull();
  });
});
