/**
 * Whether a reply asks not to be contacted again. Deliberately plain rules over words, checked sentence
 * by sentence so a "but" that follows in the same sentence can turn "not interested in X" into a
 * question about Y. A false positive costs one lead; a false negative messages someone who said stop,
 * so anything close to a refusal counts.
 */

const CONTACT_VERBS =
  '(message|messaging|msg|msging|dm|dms|dming|pm|pms|pming|contact|contacting|text|texting|email|emailing|write|writing|send|sending|spam|spamming|bother|bothering|reach out|reaching out)';

/** "stop messaging me", "quit spamming", "stop the DMs"; not "don't stop", "stop by" or "stop spam bots". */
const STOP_VERB =
  /\b(stop|quit) (messaging|msging|dming|pming|contacting|texting|emailing|writing|sending|spamming|bothering|pestering|harassing|reaching out|((the|these|your) )?(messages|msgs|dms|pms))\b/;
const NEGATED_STOP = /\b(dont|do not|never|cant|cannot|wont) stop\b/;
/** "don't message me", "do not contact me again", "never DM me", "dont dm me". */
const DONT_CONTACT = new RegExp(
  `\\b(dont|do not|never|please dont|stop)( ever)? ${CONTACT_VERBS}( to)? (me|us)\\b`,
);
const OTHER_REFUSALS = [
  /\bunsubscribe\b/,
  /\bopt(ing)? (me )?out\b/,
  /\boptout\b/,
  /\bno more (messages|msgs|dms|pms|emails|texts|spam)\b/,
  /\b(dont|do not) want (any|these|those|your|more|any more)( \w+)? (messages|msgs|dms|pms|emails)\b/,
  /\bleave me be\b/,
  /(^|\b(so|just|now|please|pls|plz) )get lost$/,
  /\bcease and desist\b/,
  /\bleave me alone\b/,
  /\bremove me\b/,
  /\btake me off\b/,
  /\bgo away\b/,
  /\b(fuck|f|fk) off\b/,
  /\bpiss off\b/,
  /\breported\b/,
  /\b(reporting|report|block|blocking|blocked) (you|this)\b/,
  /\b(this is|thats|its) spam\b/,
  /\bspammer\b/,
  /\b(no longer|not) (really )?interested\b(?! in\b)/,
  /** "I don't want to be contacted", "do not wish to be messaged", "don't want to hear from you". */
  /\b(dont|do not|never) (want|wish) to be (contacted|messaged|msged|dmed|pmed|texted|emailed|spammed|bothered)\b/,
  /\b(dont|do not) (want|wish) to hear from (you|u|your)\b/,
  /** "don't want to receive messages", "do not want to get any more DMs". */
  /\b(dont|do not) (want|wish) to (receive|get) (any |these |those |your |more |any more )?(messages|msgs|dms|pms|emails)\b/,
  /** "please don't reach out again", "do not contact again". */
  /\b(dont|do not|never) (ever )?(reach out|contact|message|dm|pm|text|email|write)( to me)? (again|anymore|any more)\b/,
];
const NOT_INTERESTED_IN = /\b(no longer|not) (really )?interested in\b(.*)$/;
/** "but" that turns the sentence: not "but thanks". */
const CONTRAST = /\bbut\b(?! (thanks|thank you|thx|appreciate))/;
/**
 * A whole clause that is only a refusal: "stop", "no thanks", "nope", "please stop", "kindly stop",
 * "do not contact", "blocked", "not for me", "no interest", "hard pass", "cease".
 */
const BARE =
  /^(please |pls |plz |kindly )?(stop|no|nope|nah|no thanks|no thank you|no thx|not interested|not for me|no interest|(hard )?pass|cease|spam|blocked|((dont|do not|never) (ever )?(contact|message|msg|dm|pm|text|email)))( please| pls| plz| thanks| thank you| now| it)*$/;
const ENDS_NO_THANKS = /\bno (thanks|thank you|thx)$/;

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function isRefusal(body: string): boolean {
  for (const sentence of body.split(/[.!?\n]+/)) {
    const s = normalize(sentence);
    if (!s) continue;
    if (STOP_VERB.test(s) && !NEGATED_STOP.test(s)) return true;
    if (DONT_CONTACT.test(s) && !NEGATED_STOP.test(s)) return true;
    if (OTHER_REFUSALS.some((r) => r.test(s))) return true;
    const notIn = NOT_INTERESTED_IN.exec(s);
    if (notIn && !CONTRAST.test(notIn[3] ?? '')) return true;
    for (const clause of sentence.split(/[,;:()]+/)) {
      const c = normalize(clause);
      if (BARE.test(c) || ENDS_NO_THANKS.test(c)) return true;
    }
  }
  return false;
}
