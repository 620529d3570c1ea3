import type { TRole } from '@threadreach/contract';

/** The accounts the development identity provider offers; each e-mail names one role. */
export const DEMO_USERS: ReadonlyArray<{
  email: string;
  role: TRole;
  profilesLimit: number;
  description: string;
}> = [
  { email: 'admin@demo.local', role: 'ADMIN', profilesLimit: 10, description: 'Administrator: every tool' },
  {
    email: 'moderator@demo.local',
    role: 'MODERATOR',
    profilesLimit: 10,
    description: 'Moderator: credentials and statistics',
  },
  { email: 'user@demo.local', role: 'USER', profilesLimit: 3, description: 'Subscriber with 3 profiles' },
  {
    email: 'readonly@demo.local',
    role: 'READONLY',
    profilesLimit: 3,
    description: 'Read-only: can look, cannot save',
  },
  { email: 'new@demo.local', role: 'USER', profilesLimit: 0, description: 'New user without a subscription' },
];
