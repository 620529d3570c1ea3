/** Stateless 32-bit hash of a list of integers, so any item can be derived on demand from the seed. */
export function hash(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    h = Math.imul(h, 0x297a2d39);
    h ^= h >>> 15;
    // Fold the high part of large numbers (e.g. timestamps) in as well.
    h = Math.imul(h ^ Math.floor(part / 0x100000000), 0x01000193);
  }
  return h >>> 0;
}

/** Uniform float in [0, 1) from a hash of the parts. */
export function unit(...parts: number[]): number {
  return hash(...parts) / 0x100000000;
}

export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

export function pick<T>(list: readonly T[], n: number): T {
  const item = list[n % list.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** mulberry32: a small seeded sequence generator for things drawn one after another (fault dice). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function toBase36(n: number): string {
  return n.toString(36);
}

export function fromBase36(id: string): number | undefined {
  if (!/^[0-9a-z]{1,12}$/.test(id)) return undefined;
  const n = parseInt(id, 36);
  return Number.isSafeInteger(n) ? n : undefined;
}
