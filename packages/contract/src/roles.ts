/** Roles and their ranks (spec section 6). */
export const ROLE_RANKS = { ADMIN: 4, MODERATOR: 3, USER: 2, READONLY: 1 } as const;
export type TRole = keyof typeof ROLE_RANKS;
export const ROLES = Object.keys(ROLE_RANKS) as TRole[];

export const RANK_MODERATOR = ROLE_RANKS.MODERATOR;
export const RANK_USER = ROLE_RANKS.USER;
export const RANK_ADMIN = ROLE_RANKS.ADMIN;
export const RANK_READONLY = ROLE_RANKS.READONLY;

/** A single string counts as a one-item list; anything else that is not a list gives no roles. */
export function normalizeRoles(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((r): r is string => typeof r === 'string');
  return [];
}

/** Highest rank among the roles; unknown roles rank 0, no roles rank -1 (no access at all). */
export function highestRank(roles: unknown): number {
  const list = normalizeRoles(roles);
  if (list.length === 0) return -1;
  return Math.max(...list.map((r) => (r in ROLE_RANKS ? ROLE_RANKS[r as TRole] : 0)));
}

export function hasRank(roles: unknown, required: number): boolean {
  return highestRank(roles) >= required;
}

export function isModerator(roles: unknown): boolean {
  return hasRank(roles, RANK_MODERATOR);
}

export function isAdmin(roles: unknown): boolean {
  return hasRank(roles, ROLE_RANKS.ADMIN);
}

/** Read-only: READONLY in the roles and nothing that ranks as USER or above. */
export function isReadOnly(roles: unknown): boolean {
  return normalizeRoles(roles).includes('READONLY') && highestRank(roles) < RANK_USER;
}
