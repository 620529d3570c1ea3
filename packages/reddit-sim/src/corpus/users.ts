import { hash, pick, toBase36, unit } from '../random';
import { NAME_FIRST, NAME_SECOND, NAME_STYLES } from './phrases';

const DAY_MS = 86_400_000;

export interface SimUser {
  index: number;
  id: string;
  name: string;
  createdMs: number;
  linkKarma: number;
  commentKarma: number;
  /** Compose to them fails with NOT_WHITELISTED_BY_USER_MESSAGE. */
  refusesDms: boolean;
  suspended: boolean;
  /** Still shown as an author, but the account is gone: about -> 404, compose -> USER_DOESNT_EXIST. */
  deleted: boolean;
  /** One of the seeded accounts a customer can log in as on the consent page. */
  loginable: boolean;
  description?: string;
}

export interface AccountSeed {
  name: string;
  ageDays: number;
  linkKarma: number;
  commentKarma: number;
  suspended?: boolean;
  description: string;
}

export const LOGIN_ACCOUNTS: AccountSeed[] = [
  {
    name: 'demo_founder',
    ageDays: 420,
    linkKarma: 1250,
    commentKarma: 3400,
    description: 'established account',
  },
  {
    name: 'growth_marketer',
    ageDays: 1100,
    linkKarma: 5400,
    commentKarma: 12800,
    description: 'old, high-karma account',
  },
  {
    name: 'fresh_account',
    ageDays: 2,
    linkKarma: 1,
    commentKarma: 0,
    description: 'new account, 2 days old',
  },
  {
    name: 'suspended_seller',
    ageDays: 800,
    linkKarma: 300,
    commentKarma: 150,
    suspended: true,
    description: 'suspended account',
  },
];

export const GENERATED_USERS = 3000;

export class UserPool {
  readonly users: SimUser[] = [];
  private readonly byName = new Map<string, SimUser>();

  constructor(
    private readonly seed: number,
    anchorMs: number,
  ) {
    for (let i = 0; i < GENERATED_USERS; i++) {
      const name = this.uniqueName(generateName(seed, i), i);
      const roll = unit(seed, i, 71);
      const young = unit(seed, i, 72) < 0.04;
      const ageDays = young
        ? 1 + Math.floor(unit(seed, i, 73) * 6)
        : 30 + Math.floor(unit(seed, i, 73) ** 2 * 4000);
      const scale = Math.min(1, ageDays / 700);
      this.add({
        index: i,
        id: userId(seed, i),
        name,
        createdMs: anchorMs - ageDays * DAY_MS - Math.floor(unit(seed, i, 74) * DAY_MS),
        linkKarma: Math.floor(unit(seed, i, 75) ** 3 * 40_000 * scale) + 1,
        commentKarma: Math.floor(unit(seed, i, 76) ** 2 * 60_000 * scale),
        deleted: roll < 0.02,
        suspended: roll >= 0.02 && roll < 0.05,
        refusesDms: roll >= 0.05 && roll < 0.13,
        loginable: false,
      });
    }
    LOGIN_ACCOUNTS.forEach((account) => this.addLogin(account, anchorMs));
  }

  get(name: string): SimUser | undefined {
    return this.byName.get(name.toLowerCase());
  }

  at(index: number): SimUser {
    const user = this.users[index];
    if (!user) throw new Error(`no user ${index}`);
    return user;
  }

  loginAccounts(): SimUser[] {
    return this.users.filter((u) => u.loginable);
  }

  /**
   * A login account added while the simulator runs, `ageDays` old at `nowMs`: tests give each customer a
   * Reddit account of its own, as a Reddit account is connected in one workspace only. Adding a name
   * that is a login account already returns it; a corpus user's name is refused.
   */
  addLoginAccount(account: Omit<AccountSeed, 'description'>, nowMs: number): SimUser {
    const known = this.get(account.name);
    if (known) {
      if (!known.loginable) throw new Error(`u/${account.name} is a user of the corpus`);
      return known;
    }
    return this.addLogin({ ...account, description: 'added account' }, nowMs);
  }

  /** A login account `ageDays` old at `atMs`, next in the pool. */
  private addLogin(account: AccountSeed, atMs: number): SimUser {
    const index = this.users.length;
    const user: SimUser = {
      index,
      id: userId(this.seed, index),
      name: account.name,
      createdMs: atMs - account.ageDays * DAY_MS,
      linkKarma: account.linkKarma,
      commentKarma: account.commentKarma,
      deleted: false,
      suspended: account.suspended ?? false,
      refusesDms: false,
      loginable: true,
      description: account.description,
    };
    this.add(user);
    return user;
  }

  private add(user: SimUser): void {
    this.users.push(user);
    this.byName.set(user.name.toLowerCase(), user);
  }

  private uniqueName(name: string, i: number): string {
    let candidate = name;
    let n = 0;
    while (this.byName.has(candidate.toLowerCase()) || LOGIN_ACCOUNTS.some((a) => a.name === candidate)) {
      n++;
      candidate = `${name}${(i + n) % 100}`;
    }
    return candidate;
  }
}

function userId(seed: number, index: number): string {
  return toBase36(20_000_000 + index * 1009 + (hash(seed, index, 77) % 1009));
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function generateName(seed: number, i: number): string {
  const a = pick(NAME_FIRST, hash(seed, i, 61));
  const b = pick(NAME_SECOND, hash(seed, i, 62));
  const style = pick(NAME_STYLES, hash(seed, i, 63));
  return style
    .replace('{a}', a.toLowerCase())
    .replace('{b}', b.toLowerCase())
    .replace('{A}', capital(a))
    .replace('{B}', capital(b))
    .replace('{n}', String(hash(seed, i, 64) % 100))
    .replace('{m}', String(hash(seed, i, 65) % 1000));
}
