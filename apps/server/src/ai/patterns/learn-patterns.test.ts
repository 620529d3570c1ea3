import { ZLearningPatterns } from '@threadreach/contract';
import { describe, expect, it } from 'vitest';
import {
  BRIEF_INFORMAL,
  DETAILED_FORMAL,
  GREETED_CHEERS,
  SIGNED_OFF,
  SIGNED_OFF_OWN_LINE,
} from '../ai-test.fixtures';
import { AiError } from '../ai.provider';
import { applyPatterns, targetsFromWritingStyle } from './apply-patterns';
import { classifySentence, learnPatterns } from './learn-patterns';
import { formalityScore, splitSentences } from './text-metrics';

describe('learnPatterns', () => {
  it('needs at least 3 saved edits', () => {
    expect(() => learnPatterns(BRIEF_INFORMAL.slice(0, 2))).toThrow(AiError);
    try {
      learnPatterns([]);
    } catch (error) {
      expect(error).toMatchObject({ code: 'not_enough_training_data' });
      expect((error as Error).message).toMatch(/^Not enough training data/);
    }
  });

  it("returns the spec's shape, each part with confidence and sample size", () => {
    const patterns = learnPatterns(DETAILED_FORMAL);
    expect(ZLearningPatterns.parse(patterns)).toEqual(patterns);
    for (const part of [patterns.structure, patterns.style, patterns.tone]) {
      expect(part.sample_size).toBe(3);
      expect(part.confidence).toBeGreaterThan(0);
      expect(part.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('learns brief and casual from short informal edits', () => {
    const p = learnPatterns(BRIEF_INFORMAL);
    expect(['very_brief', 'brief']).toContain(p.style.brevity_level);
    expect(p.structure.preferred_length).toBeLessThan(120);
    expect(p.tone.formality_score).toBeLessThan(0.3);
    expect(p.tone.dominant_tone).toBe('casual');
    expect(p.structure.sentence_patterns).toContainEqual(
      expect.objectContaining({ position: 'opening', type: 'greeting', frequency: 1 }),
    );
  });

  it('learns detailed and formal from long polite edits, with their transitions', () => {
    const p = learnPatterns(DETAILED_FORMAL);
    expect(p.style.brevity_level).toBe('detailed');
    expect(p.structure.preferred_length).toBeGreaterThan(300);
    expect(p.structure.avg_sentence_count).toBeGreaterThanOrEqual(4);
    expect(p.tone.formality_score).toBeGreaterThan(0.7);
    expect(p.tone.dominant_tone).toBe('professional');
    expect(p.style.transition_phrases).toEqual(['By the way']);
    expect(p.structure.sentence_patterns).toContainEqual(
      expect.objectContaining({ position: 'closing', type: 'sign_off' }),
    );
  });

  it('learns a sign-off ("Cheers, Sam") as the closing, never as a transition', () => {
    const p = learnPatterns(SIGNED_OFF);
    expect(p.structure.sentence_patterns).toContainEqual(
      expect.objectContaining({ position: 'closing', type: 'sign_off', frequency: 1 }),
    );
    expect(p.style.transition_phrases).not.toContain('cheers');
    expect(p.style.transition_phrases).toEqual([]);
  });

  it('learns the sign-off the customer closes most edits with, also written on its own line ("Cheers,\\nSam")', () => {
    for (const examples of [SIGNED_OFF, SIGNED_OFF_OWN_LINE]) {
      const p = learnPatterns(examples);
      expect(ZLearningPatterns.parse(p)).toEqual(p);
      const closing = p.structure.sentence_patterns.filter((s) => s.position === 'closing');
      expect(closing).toEqual([expect.objectContaining({ type: 'sign_off', frequency: 1 })]);
      expect(closing[0]!.description).toBe('Closes with the sign-off "Cheers, Sam"');
      // "Cheers," is no sign-off in the body, nor "Sam" a closing statement: the same as on one line.
      expect(p.structure.sentence_patterns).toEqual(learnPatterns(SIGNED_OFF).structure.sentence_patterns);
      expect(p.structure.avg_sentence_count).toBe(4);
      expect(p.style.transition_phrases).toEqual([]);
      expect(applyPatterns(targetsFromWritingStyle('Friendly and short.'), p).signOffText).toBe(
        'Cheers, Sam',
      );
    }
  });

  it('names no sign-off when the edits close differently', () => {
    const mixed = SIGNED_OFF.map((e, i) => ({
      ...e,
      final_message: e.final_message.replace(/Cheers, Sam$/, ['Cheers, Sam', 'Thanks, Sam', 'Best, Sam'][i]!),
    }));
    const p = learnPatterns(mixed);
    const closing = p.structure.sentence_patterns.find((s) => s.position === 'closing')!;
    expect(closing).toMatchObject({ type: 'sign_off', frequency: 1, description: 'Closes with a sign-off' });
    expect(applyPatterns(targetsFromWritingStyle('Friendly and short.'), p).signOffText).toBeNull();
  });

  it('learns no transition from "I made Ledgerly, ...": a product phrase before a comma is no connective', () => {
    const p = learnPatterns(GREETED_CHEERS);
    expect(p.style.transition_phrases).toEqual([]);
    expect(applyPatterns(targetsFromWritingStyle('Friendly and short.'), p).transitions).toEqual([]);
  });

  it('puts only connectives into drafts, also from patterns learned before they were told apart', () => {
    const learned = learnPatterns(GREETED_CHEERS);
    const transition_phrases = ['cheers', 'i made ledgerly', 'last week', 'Quick question', 'by the way'];
    const older = { ...learned, style: { ...learned.style, transition_phrases } };
    expect(applyPatterns(targetsFromWritingStyle('Friendly and short.'), older).transitions).toEqual([
      'Quick question',
      'by the way',
    ]);
  });

  it('learns the connectives the customer repeats, as they write them, at most 5', () => {
    const edits = (messages: string[]) => messages.map((final_message) => ({ final_message }));
    const p = learnPatterns(
      edits([
        'Hi Maya! Saw your post about juggling invoices. By the way, I made Ledgerly for that. Also, it is free to try at ledgerly.app. Cheers!',
        'Hi Tom, quick question: do you still use a spreadsheet? By the way, I made Ledgerly, which sorts receipts. Try it at ledgerly.app. Cheers!',
        'Hi Priya! Read your question about expenses. That said, I made Ledgerly for freelancers. Also, it is free at ledgerly.app. Quick question — does it fit? Cheers!',
      ]),
    );
    // "That said" is in one edit only: no habit yet. "Quick question" as they mostly write it.
    expect(p.style.transition_phrases).toEqual(['Also', 'By the way', 'Quick question']);

    const many = learnPatterns(
      GREETED_CHEERS.map((e) => ({
        ...e,
        final_message: e.final_message.replace(
          'I made Ledgerly',
          'Honestly, yes. Also, fun. Plus, more. That said, fine. By the way, ok. Anyway, I made Ledgerly',
        ),
      })),
    );
    expect(many.style.transition_phrases).toEqual(['Also', 'Anyway', 'By the way', 'Honestly', 'Plus']);
  });

  it('says the tone is enthusiastic only when the enthusiasm is high', () => {
    // "Hi Maya!" and "Cheers!" around plain sentences: medium enthusiasm, a friendly tone.
    const greeted = learnPatterns(GREETED_CHEERS);
    expect(greeted.tone).toMatchObject({ enthusiasm_level: 'medium', dominant_tone: 'friendly' });
    const excited = learnPatterns(
      GREETED_CHEERS.map((e) => ({
        ...e,
        final_message: e.final_message.replace(/\. /g, '! ').replace('I made', 'I love this, so I made'),
      })),
    );
    expect(excited.tone).toMatchObject({ enthusiasm_level: 'high', dominant_tone: 'enthusiastic' });
    for (const examples of [BRIEF_INFORMAL, DETAILED_FORMAL, SIGNED_OFF, GREETED_CHEERS]) {
      const { tone } = learnPatterns(examples);
      if (tone.dominant_tone === 'enthusiastic') expect(tone.enthusiasm_level).toBe('high');
    }
  });

  it('is deterministic', () => {
    expect(learnPatterns(BRIEF_INFORMAL)).toEqual(learnPatterns([...BRIEF_INFORMAL]));
  });
});

describe('text metrics', () => {
  it('scores casual text lower than formal text', () => {
    const casual = "hey! saw your post, tbh it's pretty cool. grab a free trial at x.io";
    const formal =
      'Hello, I read your post regarding churn. I would appreciate your feedback. Thank you for your time.';
    expect(formalityScore(casual)).toBeLessThan(0.3);
    expect(formalityScore(formal)).toBeGreaterThan(0.7);
  });

  it('splits sentences without breaking domains', () => {
    expect(splitSentences('Hi Sam, saw your post. Try it at churnpilot.io. Cheers!')).toEqual([
      'Hi Sam, saw your post.',
      'Try it at churnpilot.io.',
      'Cheers!',
    ]);
  });

  it('classifies what a sentence does', () => {
    expect(classifySentence('Hey Sam,')).toEqual(['greeting']);
    expect(classifySentence('Hey Sam, saw your post about churn.')).toEqual(['greeting', 'reference']);
    expect(classifySentence('Try it free at churnpilot.io.')).toEqual(['call_to_action']);
    expect(classifySentence('I built ChurnPilot for this.')).toEqual(['offer']);
    expect(classifySentence('Did you find a fix?')).toEqual(['question']);
    expect(classifySentence('Cheers!')).toEqual(['sign_off']);
  });
});
