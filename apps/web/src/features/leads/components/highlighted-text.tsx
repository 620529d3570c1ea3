import { Mark, Text, type TextProps } from '@mantine/core';
import type { TMatchReason } from '@threadreach/contract';
import { previewSegments } from '../highlight';

interface THighlightedTextProps extends TextProps {
  text: string;
  matches: readonly TMatchReason[];
  /** Preview length; the whole text without it. */
  limit?: number;
  component?: 'p' | 'span' | 'div';
}

/** A text (or its preview) with the matched keywords marked, from the stored offsets. */
export function HighlightedText({ text, matches, limit, component = 'p', ...props }: THighlightedTextProps) {
  const { segments, cutStart, cutEnd } = previewSegments(text, matches, limit);
  return (
    <Text component={component} {...props}>
      {cutStart && '…'}
      {segments.map((s, i) =>
        s.match ? (
          <Mark key={i} color="yellow" data-match>
            {s.text}
          </Mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
      {cutEnd && '…'}
    </Text>
  );
}
