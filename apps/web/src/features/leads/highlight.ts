import type { TMatchField, TMatchReason } from '@threadreach/contract';

export interface TSegment {
  text: string;
  match: boolean;
}

export interface TPreview {
  segments: TSegment[];
  /** The preview starts after the text's beginning, or ends before its end. */
  cutStart: boolean;
  cutEnd: boolean;
}

/** Characters kept before a match when the preview has to start further into the text. */
const CONTEXT_BEFORE_MATCH = 40;

interface TRange {
  start: number;
  end: number;
}

/** Match ranges inside the text, in order, overlapping ones merged. */
function cleanRanges(ranges: readonly TRange[], length: number): TRange[] {
  const sorted = ranges
    .map((r) => ({ start: Math.max(0, r.start), end: Math.min(length, r.end) }))
    .filter((r) => r.start < r.end)
    .sort((a, b) => a.start - b.start);
  const merged: TRange[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/**
 * A preview of at most `limit` characters of `text`, cut into plain and matched segments from the
 * stored match offsets (end exclusive). When the first match lies beyond the limit, the preview starts
 * shortly before it, so the reason for the match stays visible.
 */
export function previewSegments(text: string, ranges: readonly TRange[], limit = Infinity): TPreview {
  const matches = cleanRanges(ranges, text.length);
  let from = 0;
  if (text.length > limit && matches[0] && matches[0].end > limit) {
    from = Math.max(0, Math.min(matches[0].start - CONTEXT_BEFORE_MATCH, text.length - limit));
  }
  const to = Math.min(text.length, from + limit);
  const segments: TSegment[] = [];
  let at = from;
  for (const m of matches) {
    const start = Math.max(m.start, from);
    const end = Math.min(m.end, to);
    if (start >= end) continue;
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < to) segments.push({ text: text.slice(at, to), match: false });
  return { segments, cutStart: from > 0, cutEnd: to < text.length };
}

/** The matches of one field. */
export function matchesIn(matches: readonly TMatchReason[], field: TMatchField): TMatchReason[] {
  return matches.filter((m) => m.field === field);
}

/** "keyword" in title / body, once per keyword and field, in order of first appearance. */
export function matchSummary(matches: readonly TMatchReason[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const m of matches) {
    const line = `“${m.keyword}” in ${m.field}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return lines;
}
