import { systemEndpoints, type TPublicConfig } from '@threadreach/contract';
import { mockEndpoint } from './api-mock.test-support';

/** The deployment as the sign-in screen reads it: the demo on the simulator unless told otherwise. */
export function mockPublicConfig(overrides: Partial<TPublicConfig> = {}) {
  return mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: true,
    main_app_url: null,
    support_chat_script_url: null,
    reddit_web_url: 'http://127.0.0.1:4100',
    dm_expiry_days: 14,
    ...overrides,
  });
}
