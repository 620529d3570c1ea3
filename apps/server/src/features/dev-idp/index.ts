export { devIdentityProvider, DEV_IDP_PREFIX } from './dev-idp.plugin';
export { seedDemoUsers } from './dev-idp.seed';
export { DEMO_USERS } from './demo-users';
