import { afterAll, afterEach } from 'vitest';
import { assertNoOutboundRequests, installOutboundGuard } from './outbound-guard.test-support';

installOutboundGuard();
afterEach(assertNoOutboundRequests);
afterAll(assertNoOutboundRequests);
