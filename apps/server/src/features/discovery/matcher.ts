import type { TMatchReason } from '@threadreach/contract';

/** What one project looks for, as the discovery cycle hands it to the matcher. */
export interface ProjectRules {
  projectId: string;
  /** Approved keywords (product and ICP). */
  keywords: string[];
  /** An item holding any of these is never a lead of the project. */
  negativeKeywords: string[];
  /** Lower-case subreddit names the project approved. */
  subreddits: string[];
  /** Lower-case names. */
  excludedSubreddits: string[];
  excludedAuthors: string[];
  /** Every item of the approved subreddits is a lead, keywords or not. */
  withoutKeywords: boolean;
}

/** A post (t3) or comment (t1) as read from a listing. */
export interface MatchableItem {
  name: string;
  kind: 't3' | 't1';
  subreddit: string;
  author: string;
  /** Posts: the title; comments: empty (their post's title is not theirs). */
  title: string;
  body: string;
}

export interface ItemMatch {
  projectId: string;
  /** Distinct keywords found, in the project's spelling, in order of first occurrence. */
  matchedKeywords: string[];
  matches: TMatchReason[];
}

export interface Matcher {
  /** Every project the item is a lead of, with why. */
  match(item: MatchableItem): ItemMatch[];
}

// ---- folding ------------------------------------------------------------------------------------

const NON_ASCII = /[^\p{ASCII}]/u;
const MARKS = /\p{M}/gu;
const foldedChars = new Map<number, string>();

/** One code point without accents, in lower case; may be empty (a lone mark) or longer (Hangul). */
function foldChar(cp: number): string {
  let out = foldedChars.get(cp);
  if (out === undefined) {
    // Marks go after lower-casing, which can add one: 'İ' lower-cases to 'i' and a dot above.
    out = String.fromCodePoint(cp).normalize('NFD').toLowerCase().replace(MARKS, '');
    if (foldedChars.size < 10_000) foldedChars.set(cp, out);
  }
  return out;
}

interface Folded {
  folded: string;
  /** Original offset of each folded character plus the text's length at the end; null when 1:1. */
  offsets: number[] | null;
}

function foldText(text: string): Folded {
  // Plain ASCII, by far the most common text, folds by lower-casing alone, character for character.
  if (!NON_ASCII.test(text)) return { folded: text.toLowerCase(), offsets: null };
  let folded = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const base = cp < 0x80 ? (cp >= 65 && cp <= 90 ? String.fromCharCode(cp + 32) : text[i]!) : foldChar(cp);
    for (let j = 0; j < base.length; j++) offsets.push(i);
    folded += base;
    i += cp > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  return { folded, offsets };
}

/** Lower case without accents, with a map from each folded character back to the original offset. */
export function fold(text: string): { folded: string; offsets: number[] } {
  const { folded, offsets } = foldText(text);
  return { folded, offsets: offsets ?? Array.from({ length: text.length + 1 }, (_, i) => i) };
}

/** A keyword as the matcher compares it: folded, its words separated by single spaces. */
function normalizeKeyword(keyword: string): string {
  return foldText(keyword).folded.trim().split(/\s+/).filter(Boolean).join(' ');
}

// ---- the compiled pattern -----------------------------------------------------------------------

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}_])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{N}_])';
const SYNTAX = /[\\^$.*+?()[\]{}|/]/;

interface TrieNode {
  children: Map<string, TrieNode>;
  terminal: boolean;
}

/**
 * All keywords as one pattern shaped like their trie (`crm(?:\s+tool)?|churn`): branches at each step
 * start with different characters, so the engine never tries a shared prefix twice, and a greedy walk
 * finds the longest keyword at a position first. A space in a keyword stands for any run of whitespace.
 */
function triePattern(keys: Iterable<string>): string {
  const root: TrieNode = { children: new Map(), terminal: false };
  for (const key of keys) {
    let node = root;
    for (const ch of key) {
      let next = node.children.get(ch);
      if (!next) node.children.set(ch, (next = { children: new Map(), terminal: false }));
      node = next;
    }
    node.terminal = true;
  }
  const atom = (ch: string) => (ch === ' ' ? '\\s+' : SYNTAX.test(ch) ? `\\${ch}` : ch);
  const emit = (node: TrieNode): string => {
    const branches = [...node.children].map(([ch, child]) => atom(ch) + emit(child));
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
    if (!node.terminal) return body;
    return branches.length === 1 ? `(?:${body})?` : `${body}?`;
  };
  return emit(root);
}

interface KeyInfo {
  key: string;
  /** Projects (by index) that look for this keyword, with their spelling. */
  positives: { project: number; spelling: string }[];
  /** Projects for which this keyword rules an item out. */
  negatives: number[];
  /** Shorter keywords that also match wherever this one does: "crm" within "crm tool". */
  prefixes: KeyInfo[];
}

type Field = TMatchReason['field'];

/** How many characters of `text` from its start spell the first `length` characters of a key. */
function spanOfKeyPrefix(text: string, length: number): number {
  let i = 0;
  for (let n = 0; n < length; n++) {
    if (/\s/.test(text[i]!)) while (i < text.length && /\s/.test(text[i]!)) i++;
    else i++;
  }
  return i;
}

function originalStart(f: Folded, at: number): number {
  return f.offsets ? f.offsets[at]! : at;
}

/**
 * The original offset just after folded character `last`. A match never ends inside one character's
 * folding (a Hangul syllable's letters, a surrogate pair): it ends at a word boundary.
 */
function originalEnd(f: Folded, last: number): number {
  return f.offsets ? f.offsets[last + 1]! : last + 1;
}

/**
 * The matcher of all projects' rules: one pattern over every approved and negative keyword, so the
 * work per item grows with its text, not with the number of projects or keywords. Keywords match whole
 * words, whatever their case or accents; every occurrence is reported, also one inside another.
 */
export function compileMatcher(rules: ProjectRules[]): Matcher {
  const keys = new Map<string, KeyInfo>();
  const infoOf = (key: string) => {
    let info = keys.get(key);
    if (!info) keys.set(key, (info = { key, positives: [], negatives: [], prefixes: [] }));
    return info;
  };
  const bySubreddit = new Map<string, number[]>();
  const projects = rules.map((r, index) => {
    for (const spelling of r.keywords) {
      const key = normalizeKeyword(spelling);
      if (!key) continue;
      const info = infoOf(key);
      // A project spelling one keyword two ways reports it once, in its first spelling.
      if (!info.positives.some((p) => p.project === index)) info.positives.push({ project: index, spelling });
    }
    for (const negative of r.negativeKeywords) {
      const key = normalizeKeyword(negative);
      if (!key) continue;
      const info = infoOf(key);
      if (!info.negatives.includes(index)) info.negatives.push(index);
    }
    const excluded = new Set(r.excludedSubreddits.map((s) => s.toLowerCase()));
    for (const sub of new Set(r.subreddits.map((s) => s.toLowerCase()))) {
      if (excluded.has(sub)) continue;
      const list = bySubreddit.get(sub);
      if (list) list.push(index);
      else bySubreddit.set(sub, [index]);
    }
    return { rules: r, excludedAuthors: new Set(r.excludedAuthors.map((a) => a.toLowerCase())) };
  });
  const anyExcludedAuthor = projects.some((p) => p.excludedAuthors.size > 0);
  for (const info of keys.values()) {
    // Longest first, so occurrences come out in the order they are reported.
    for (let n = info.key.length - 1; n > 0; n--) {
      const shorter = keys.get(info.key.slice(0, n));
      if (shorter && !WORD_CHAR.test(info.key[n]!)) info.prefixes.push(shorter);
    }
  }
  const pattern =
    keys.size > 0 ? new RegExp(BOUNDARY_BEFORE + triePattern(keys.keys()) + BOUNDARY_AFTER, 'gu') : null;

  // Marks the projects the current item may be a lead of, without allocating per item.
  const candidateOf = new Uint32Array(projects.length);
  let round = 0;
  let ruledOut = new Set<number>();
  let found = new Map<number, TMatchReason[]>();

  /** Notes one occurrence for the item's candidate projects: a reason, or a negative ruling it out. */
  function record(info: KeyInfo, field: Field, f: Folded, at: number, length: number): void {
    for (const p of info.negatives) if (candidateOf[p] === round) ruledOut.add(p);
    let reason: Omit<TMatchReason, 'keyword'> | null = null;
    for (const { project, spelling } of info.positives) {
      if (candidateOf[project] !== round) continue;
      reason ??= { field, start: originalStart(f, at), end: originalEnd(f, at + length - 1) };
      const list = found.get(project);
      if (list) list.push({ keyword: spelling, ...reason });
      else found.set(project, [{ keyword: spelling, ...reason }]);
    }
  }

  function scan(text: string, field: Field): void {
    if (!pattern || !text) return;
    const f = foldText(text);
    const s = f.folded;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(s); m; m = pattern.exec(s)) {
      const at = m.index;
      const matched = m[0];
      const info = keys.get(matched) ?? keys.get(matched.replace(/\s+/g, ' '))!;
      record(info, field, f, at, matched.length);
      for (const shorter of info.prefixes) {
        record(shorter, field, f, at, spanOfKeyPrefix(matched, shorter.key.length));
      }
      // Other keywords may start inside this one ("tool" in "crm tool"): go on from the next character.
      pattern.lastIndex = at + (s.codePointAt(at)! > 0xffff ? 2 : 1);
    }
  }

  return {
    match(item) {
      const sub = item.subreddit.toLowerCase();
      const author = item.author.toLowerCase();
      const watching = bySubreddit.get(sub);
      if (!watching) return [];
      const candidates = anyExcludedAuthor
        ? watching.filter((i) => !projects[i]!.excludedAuthors.has(author))
        : watching;
      if (candidates.length === 0) return [];
      round = round === 0xffffffff ? 1 : round + 1;
      if (round === 1) candidateOf.fill(0);
      for (const i of candidates) candidateOf[i] = round;
      ruledOut = new Set();
      found = new Map();
      scan(item.title, 'title');
      scan(item.body, 'body');

      const out: ItemMatch[] = [];
      for (const index of candidates) {
        if (ruledOut.has(index)) continue;
        const matches = found.get(index) ?? [];
        if (matches.length === 0 && !projects[index]!.rules.withoutKeywords) continue;
        matches.sort((a, b) =>
          a.field !== b.field ? (a.field === 'title' ? -1 : 1) : a.start - b.start || b.end - a.end,
        );
        out.push({
          projectId: projects[index]!.rules.projectId,
          matchedKeywords: [...new Set(matches.map((m) => m.keyword))],
          matches,
        });
      }
      return out;
    },
  };
}
