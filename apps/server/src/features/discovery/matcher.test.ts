import { fc, test } from '@fast-check/vitest';
import type { TMatchReason } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import { compileMatcher, fold, type ItemMatch, type MatchableItem, type ProjectRules } from './matcher';

const PROPERTY = { seed: 20_260_105, numRuns: 200, endOnFailure: true } as const;

function rules(overrides: Partial<ProjectRules> & { projectId: string }): ProjectRules {
  return {
    keywords: [],
    negativeKeywords: [],
    subreddits: ['saas'],
    excludedSubreddits: [],
    excludedAuthors: [],
    withoutKeywords: false,
    ...overrides,
  };
}

function post(title: string, body = '', overrides: Partial<MatchableItem> = {}): MatchableItem {
  return { name: 't3_1', kind: 't3', subreddit: 'SaaS', author: 'someone', title, body, ...overrides };
}

const spans = (m: ItemMatch | undefined, text: { title: string; body: string }) =>
  (m?.matches ?? []).map((r) => `${r.keyword}@${r.field}:${text[r.field].slice(r.start, r.end)}`);

describe('compileMatcher', () => {
  it('matches whole words only, whatever their case or accents, and maps offsets to the original text', () => {
    const m = compileMatcher([rules({ projectId: 'p', keywords: ['CRM', 'café'] })]);
    const item = post('Which Crm? CRMs are pricey', 'Our CAFE and the Café près, not cafés or ecrm.');
    const [match] = m.match(item);
    expect(spans(match, item)).toEqual(['CRM@title:Crm', 'café@body:CAFE', 'café@body:Café']);
    expect(match!.matchedKeywords).toEqual(['CRM', 'café']);
  });

  it('reports a keyword inside a longer one and keywords overlapping each other', () => {
    const m = compileMatcher([
      rules({ projectId: 'p', keywords: ['crm', 'crm tool', 'tool', 'a b', 'b c'] }),
    ]);
    const item = post('best CRM\n  tool', 'a b c');
    expect(spans(m.match(item)[0], item)).toEqual([
      'crm tool@title:CRM\n  tool',
      'crm@title:CRM',
      'tool@title:tool',
      'a b@body:a b',
      'b c@body:b c',
    ]);
  });

  it('keeps offsets right around characters whose folding changes their length', () => {
    const m = compileMatcher([rules({ projectId: 'p', keywords: ['istanbul', 'resume', '한국', 'ok😀'] })]);
    // 'İ' lower-cases to two code units; 'é' here is 'e' plus a combining accent; '국' folds to 3 jamo.
    const item = post('İİ İSTANBUL trip to 한국!', 'my re\u0301sume\u0301, OK😀 please');
    const [match] = m.match(item);
    expect(spans(match, item)).toEqual([
      'istanbul@title:İSTANBUL',
      '한국@title:한국',
      'resume@body:re\u0301sume\u0301',
      'ok😀@body:OK😀',
    ]);
  });

  it('drops a project whose negative keyword the item holds, for that project only', () => {
    const m = compileMatcher([
      rules({ projectId: 'a', keywords: ['crm'], negativeKeywords: ['we are hiring'] }),
      rules({ projectId: 'b', keywords: ['crm'] }),
      rules({ projectId: 'c', withoutKeywords: true, negativeKeywords: ['crm'] }),
    ]);
    expect(m.match(post('Need a CRM', 'We are\nhiring!')).map((x) => x.projectId)).toEqual(['b']);
    expect(m.match(post('Need a CRM', 'We are hiringmanagers')).map((x) => x.projectId)).toEqual(['a', 'b']);
  });

  it('honours subreddits, excluded subreddits and excluded authors, and takes everything when asked to', () => {
    const m = compileMatcher([
      rules({
        projectId: 'a',
        keywords: ['crm'],
        subreddits: ['saas', 'startups'],
        excludedAuthors: ['Spammer'],
      }),
      rules({
        projectId: 'b',
        keywords: ['crm'],
        subreddits: ['startups'],
        excludedSubreddits: ['startups'],
      }),
      rules({ projectId: 'c', withoutKeywords: true, subreddits: ['startups'] }),
    ]);
    const ids = (item: MatchableItem) => m.match(item).map((x) => x.projectId);
    expect(ids(post('crm?', '', { subreddit: 'Startups' }))).toEqual(['a', 'c']);
    expect(ids(post('nothing here', '', { subreddit: 'startups' }))).toEqual(['c']);
    expect(ids(post('crm?', '', { author: 'spammer' }))).toEqual([]);
    expect(ids(post('crm?', '', { subreddit: 'cooking' }))).toEqual([]);
    expect(m.match(post('nothing', '', { subreddit: 'startups' }))[0]).toEqual({
      projectId: 'c',
      matchedKeywords: [],
      matches: [],
    });
  });

  it('reports each project its own spelling of a shared keyword, and ignores empty keywords', () => {
    const m = compileMatcher([
      rules({ projectId: 'a', keywords: ['Help Desk', '  ', 'help desk'] }),
      rules({ projectId: 'b', keywords: ['help   DESK'] }),
    ]);
    const result = m.match(post('any help desk for two people?'));
    expect(result.map((r) => [r.projectId, r.matchedKeywords, r.matches.length])).toEqual([
      ['a', ['Help Desk'], 1],
      ['b', ['help   DESK'], 1],
    ]);
  });

  it('treats regular-expression characters in keywords as text', () => {
    const m = compileMatcher([rules({ projectId: 'p', keywords: ['c++', 'node.js', '(beta)'] })]);
    const item = post('c++ or nodexjs or node.js (beta)');
    expect(spans(m.match(item)[0], item)).toEqual([
      'c++@title:c++',
      'node.js@title:node.js',
      '(beta)@title:(beta)',
    ]);
  });

  it('matches nothing without keywords or rules', () => {
    expect(compileMatcher([]).match(post('crm'))).toEqual([]);
    expect(compileMatcher([rules({ projectId: 'p' })]).match(post('crm'))).toEqual([]);
  });
});

describe('fold', () => {
  it('lower-cases, strips accents and maps every folded character back to its origin', () => {
    expect(fold('ÀbÇ')).toEqual({ folded: 'abc', offsets: [0, 1, 2, 3] });
    expect(fold('e\u0301x')).toEqual({ folded: 'ex', offsets: [0, 2, 3] });
    expect(fold('İa').folded).toBe('ia');
    expect(fold('😀A')).toEqual({ folded: '😀a', offsets: [0, 0, 2, 3] });
    expect(fold('한').folded).toHaveLength(3);
  });
});

// ---- properties -----------------------------------------------------------------------------------

/** Words the keywords and texts are built from: accents, multi-code-unit folds, punctuation, nesting. */
const WORDS = ['crm', 'tool', 'crm tool', 'café', 'istanbul', 'a', 'b', 'c++', '한국', 'ok😀'];
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const ACCENTED: Record<string, string> = { a: 'á', e: 'é', i: 'î', o: 'ö', u: 'ü', c: 'ç', n: 'ñ' };

const keywordArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WORDS) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map((w) => w.join(' ')),
  },
);

/** Texts mixing the words (in any case, with or without accents) with separators and stray letters. */
const textArb = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
      { weight: 1, arbitrary: fc.constantFrom('CRM', 'Café', 'İSTANBUL', 'cafe\u0301', 'TOOL', 'İ', 'ß') },
      { weight: 4, arbitrary: fc.constantFrom(' ', '  ', '\n', '\t ', ', ', '. ', '-', '_', '?', '\u00a0') },
      { weight: 1, arbitrary: fc.constantFrom('s', 'e', '1', 'x', '😀') },
    ),
    { maxLength: 14 },
  )
  .map((parts) => parts.join(''));

const projectsArb = fc.array(
  fc.record({
    keywords: fc.array(keywordArb, { maxLength: 4 }),
    negativeKeywords: fc.array(keywordArb, { maxLength: 1 }),
    withoutKeywords: fc.boolean(),
  }),
  { minLength: 1, maxLength: 3 },
);

const collapse = (text: string) => text.replace(/\s+/g, ' ');
const normalize = (keyword: string) => collapse(fold(keyword.trim()).folded);

/**
 * Every occurrence of a keyword, found the slow and obvious way: every span of the original text whose
 * folded form is the keyword (any whitespace between its words), with no word character folded on
 * either side. Spans start and end on characters that fold to something, so a trailing accent belongs
 * to the word before it.
 */
function referenceOccurrences(text: string, keyword: string): { start: number; end: number }[] {
  const key = normalize(keyword);
  if (!key) return [];
  const points = [...text].map((ch) => ({ ch, folded: fold(ch).folded }));
  const offsetOf = (index: number) => points.slice(0, index).reduce((sum, p) => sum + p.ch.length, 0);
  const isWordStart = (folded: string) => WORD_CHAR.test([...folded][0]!);
  const isWordEnd = (folded: string) => WORD_CHAR.test([...folded].at(-1)!);
  const out: { start: number; end: number }[] = [];
  for (let s = 0; s < points.length; s++) {
    if (!points[s]!.folded) continue;
    const before = points
      .slice(0, s)
      .filter((p) => p.folded)
      .at(-1);
    if (before && isWordEnd(before.folded)) continue;
    let folded = '';
    for (let e = s; e < points.length; e++) {
      folded += points[e]!.folded;
      if (!points[e]!.folded || collapse(folded) !== key) continue;
      let next = e + 1;
      while (next < points.length && !points[next]!.folded) next++;
      if (next < points.length && isWordStart(points[next]!.folded)) continue;
      out.push({ start: offsetOf(s), end: offsetOf(next) });
    }
  }
  return out;
}

function referenceMatch(projects: ProjectRules[], item: MatchableItem): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of projects) {
    const negative = p.negativeKeywords.some(
      (k) => referenceOccurrences(item.title, k).length + referenceOccurrences(item.body, k).length > 0,
    );
    if (negative) continue;
    const found = new Set<string>();
    const seen = new Set<string>();
    for (const keyword of p.keywords) {
      const key = normalize(keyword);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      for (const field of ['title', 'body'] as const) {
        for (const o of referenceOccurrences(item[field], keyword))
          found.add(`${keyword}|${field}|${o.start}|${o.end}`);
      }
    }
    if (found.size > 0 || p.withoutKeywords) out.set(p.projectId, found);
  }
  return out;
}

const asSets = (result: ItemMatch[]) =>
  new Map(
    result.map((r) => [
      r.projectId,
      new Set(r.matches.map((m: TMatchReason) => `${m.keyword}|${m.field}|${m.start}|${m.end}`)),
    ]),
  );

function withIds(
  list: Omit<ProjectRules, 'projectId' | 'subreddits' | 'excludedSubreddits' | 'excludedAuthors'>[],
) {
  return list.map((p, i) => rules({ ...p, projectId: `p${i}` }));
}

describe('matcher properties', () => {
  test.prop([projectsArb, textArb, textArb], PROPERTY)(
    'finds exactly the keyword occurrences at word boundaries that a brute-force search finds',
    (list, title, body) => {
      const projects = withIds(list);
      const item = post(title, body);
      expect(asSets(compileMatcher(projects).match(item))).toEqual(referenceMatch(projects, item));
    },
  );

  test.prop([projectsArb, textArb, textArb], PROPERTY)(
    'never makes a lead of an item holding a negative keyword of the project',
    (list, title, body) => {
      const projects = withIds(list);
      const leads = new Set(
        compileMatcher(projects)
          .match(post(title, body))
          .map((m) => m.projectId),
      );
      for (const p of projects) {
        const negative = p.negativeKeywords.some(
          (k) => referenceOccurrences(title, k).length + referenceOccurrences(body, k).length > 0,
        );
        if (negative) expect(leads.has(p.projectId)).toBe(false);
      }
    },
  );

  test.prop([fc.array(keywordArb, { minLength: 1, maxLength: 5 }), textArb, textArb], PROPERTY)(
    'points every match at text that folds to its keyword',
    (keywords, title, body) => {
      const item = post(title, body);
      for (const m of compileMatcher([rules({ projectId: 'p', keywords })]).match(item)[0]?.matches ?? []) {
        expect(collapse(fold(item[m.field].slice(m.start, m.end)).folded)).toBe(normalize(m.keyword));
      }
    },
  );

  test.prop([fc.array(keywordArb, { minLength: 1, maxLength: 5 }), textArb], PROPERTY)(
    'matches the same places whatever the case or accents of the text',
    (keywords, text) => {
      const m = compileMatcher([rules({ projectId: 'p', keywords })]);
      const shouted = text.replace(/[a-z]/g, (c) => c.toUpperCase());
      const accented = text.replace(/[aeioucn]/g, (c) => ACCENTED[c]!);
      const plain = m.match(post(text));
      expect(m.match(post(shouted))).toEqual(plain);
      expect(m.match(post(accented))).toEqual(plain);
    },
  );

  test.prop([keywordArb, fc.constantFrom('s', 'x', '1', '_', 'é', 'İ'), fc.boolean()], PROPERTY)(
    'never matches inside a longer word',
    (keyword, letter, before) => {
      const text = before ? `${letter}${keyword}` : `${keyword}${letter}`;
      expect(compileMatcher([rules({ projectId: 'p', keywords: [keyword] })]).match(post(text))).toEqual([]);
    },
  );
});
