import type { ReactNode } from 'react';
import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { TRANSITION_PHRASES_MAX, type TLearningPatterns } from '@threadreach/contract';
import { percent, when, words } from '../agent-format';

function PatternCard(props: { title: string; confidence: number; sampleSize: number; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={props.title}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{props.title}</Text>
          <Badge variant="light" tt="none">
            Confidence {percent(props.confidence)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          Sample size: {props.sampleSize}
        </Text>
        {props.children}
      </Stack>
    </Paper>
  );
}

const Fact = ({ label, value }: { label: string; value: ReactNode }) => (
  <Text size="sm">
    <Text span c="dimmed" size="sm">
      {label}:
    </Text>{' '}
    {value}
  </Text>
);

export interface TLearningPatternsViewerProps {
  patterns: TLearningPatterns;
  learnedAt: string | null;
  examplesUsed: number;
}

/** What the agent learned from the saved edits: structure, style and tone, each with its confidence. */
export function LearningPatternsViewer({ patterns, learnedAt, examplesUsed }: TLearningPatternsViewerProps) {
  const { structure, style, tone } = patterns;
  const phrases = style.transition_phrases.slice(0, TRANSITION_PHRASES_MAX);
  return (
    <Stack gap="xs" aria-label="Learning patterns">
      <Group justify="space-between">
        <Title order={4}>Learning patterns</Title>
        <Text size="xs" c="dimmed">
          Learned {when(learnedAt)} from {examplesUsed} saved edits
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
        <PatternCard title="Structure" confidence={structure.confidence} sampleSize={structure.sample_size}>
          <Fact label="Preferred length" value={`${structure.preferred_length} characters`} />
          <Fact label="Sentences" value={structure.avg_sentence_count.toFixed(1)} />
          {structure.sentence_patterns.length > 0 && (
            <List size="sm" spacing={2}>
              {structure.sentence_patterns.map((p) => (
                <List.Item key={`${p.position}-${p.type}`}>
                  {words(p.position)}: {words(p.type)} ({percent(p.frequency)}) — {p.description}
                </List.Item>
              ))}
            </List>
          )}
        </PatternCard>
        <PatternCard title="Style" confidence={style.confidence} sampleSize={style.sample_size}>
          <Fact label="Brevity" value={words(style.brevity_level)} />
          <Text size="sm" c="dimmed">
            Transition phrases:
          </Text>
          {phrases.length === 0 ? (
            <Text size="sm">None yet</Text>
          ) : (
            <Group gap={4} aria-label="Transition phrases">
              {phrases.map((phrase) => (
                <Badge key={phrase} variant="outline" tt="none">
                  {phrase}
                </Badge>
              ))}
            </Group>
          )}
        </PatternCard>
        <PatternCard title="Tone" confidence={tone.confidence} sampleSize={tone.sample_size}>
          <Fact label="Dominant tone" value={words(tone.dominant_tone)} />
          <Fact label="Formality" value={percent(tone.formality_score)} />
          <Fact label="Enthusiasm" value={words(tone.enthusiasm_level)} />
        </PatternCard>
      </SimpleGrid>
    </Stack>
  );
}
