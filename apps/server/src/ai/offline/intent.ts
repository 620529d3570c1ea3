import type { TMatchReason } from '@threadreach/contract';

/** How likely a post's or comment's author wants what the project sells, 0-100, and why. */
export interface IntentScore {
  score: number;
  reasons: string[];
}

export interface IntentText {
  title: string;
  body: string;
}

interface Signal {
  re: RegExp;
  weight: number;
  reason: string;
}

const PRODUCT_NOUN =
  '(?:tool|tools|app|apps|software|service|services|platform|solution|solutions|program|plugin|extension|system|saas|crm|product|website|site|bot|option|options|something)';

/** Signs that someone is shopping: each counts once, however often it appears. */
const BUYING: Signal[] = [
  {
    re: new RegExp(
      [
        `\\b(?:looking|searching|hunting|shopping)\\s+(?:for|around\\s+for)\\b.{0,50}\\b${PRODUCT_NOUN}\\b`,
        `\\b(?:need|needs|want|wanted|require)\\s+(?:a|an|some|the|one)?\\s*(?:good\\s+|simple\\s+|cheap\\s+|better\\s+)?\\w*\\s*${PRODUCT_NOUN}\\b`,
        `\\bis\\s+there\\s+(?:a|an|any|some)\\b.{0,40}\\b(?:${PRODUCT_NOUN}|way)\\b`,
        `\\b(?:does|do)\\s+(?:anyone|anybody|someone|you\\s+guys)\\s+know\\s+(?:of\\s+)?(?:a|an|any)\\b.{0,40}\\b${PRODUCT_NOUN}\\b`,
        `\\bwhat\\s+(?:${PRODUCT_NOUN}|\\w+\\s+${PRODUCT_NOUN})\\s+(?:do|does|would|should|are)\\s+(?:you|people|y'?all|folks)\\b`,
        `\\bwhat\\s+(?:are|do)\\s+(?:you|people|y'?all|folks)\\s+(?:all\\s+)?us(?:e|ing)\\b`,
      ].join('|'),
      'i',
    ),
    weight: 30,
    reason: 'asks for a tool',
  },
  {
    re: /\b(?:recommend(?:ation|ations|ed)?|suggest(?:ion|ions)?|advice\s+on|any\s+good|which\s+(?:one|\w+)\s+(?:should|would)\s+(?:i|you)|what(?:'s|\s+is)\s+the\s+best|best\s+(?:\w+\s+){0,2}(?:for|to)\b|worth\s+(?:it|paying|trying))/i,
    weight: 25,
    reason: 'asks for a recommendation',
  },
  {
    re: /\b(?:alternatives?\s+(?:to|for)|an?\s+alternative\b|instead\s+of|replacement\s+for|replace\s+(?:our|my|it|\w+)|switch(?:ing|ed)?\s+(?:from|away|off)|moving\s+away\s+from|migrat(?:e|ing)\s+(?:off|from)|cheaper\s+than|better\s+than)/i,
    weight: 25,
    reason: 'looks for an alternative',
  },
  {
    re: /\b(?:frustrat\w*|struggl\w*|pain(?:ful)?|hate|hated|annoy\w*|tired\s+of|sick\s+of|fed\s+up|nightmare|waste\s+of\s+time|wasting\s+(?:hours|time)|takes\s+(?:hours|forever|ages)|too\s+(?:expensive|complicated|slow|bloated)|(?:does\s*n[o']t|doesn't|don't|do\s+not)\s+work|broken|killing\s+me|by\s+hand|manually|spreadsheet\s+hell|problem|issue\s+with)\b/i,
    weight: 15,
    reason: 'complains about a problem',
  },
  {
    re: /(?:[$€£]\s?\d|\b\d+\s?(?:usd|eur|dollars|bucks)\b|\bbudget\b|\b(?:per|a)\s+month\b|\/\s?(?:mo|month|yr|year)\b|\bpricing\b|\bprice\b|\bafford\b|\b(?:willing|happy|ready)\s+to\s+pay\b|\bfree\s+or\s+cheap\b|\bpaid\s+plan\b)/i,
    weight: 10,
    reason: 'mentions budget or pricing',
  },
  {
    re: /\b(?:asap|urgent(?:ly)?|right\s+now|this\s+week|before\s+(?:monday|launch|next\s+week))\b/i,
    weight: 5,
    reason: 'needs it soon',
  },
];

const QUESTION: Signal = {
  re: /\?|^\s*(?:how|what|which|where|who|is\s+there|are\s+there|does\s+anyone|can\s+anyone|anyone|any)\b/im,
  weight: 10,
  reason: 'asks a question',
};

/** Posts that sell, hire or report a solved problem are rarely leads, whatever words they use. */
const DAMPENERS: Signal[] = [
  {
    re: /\b(?:i|we)\s+(?:just\s+)?(?:built|made|created|launched|released|shipped|developed)\b|\b(?:check\s+out|introducing|announcing)\s+(?:my|our)\b|\b(?:my|our)\s+(?:new\s+)?(?:app|tool|startup|saas|product|side\s+project)\s+(?:is|helps|lets|just)\b|\bshow\s*(?:hn|off)\b|\bfeedback\s+on\s+(?:my|our)\b|\broast\s+my\b|\bpromo\s+code\b|\blaunch(?:ed|ing)\s+on\s+product\s+hunt\b/i,
    weight: -35,
    reason: 'self-promotion',
  },
  {
    re: /\[\s*(?:hiring|for\s+hire|task)\s*\]|\b(?:we(?:'re|\s+are)\s+hiring|now\s+hiring|is\s+hiring|job\s+(?:opening|offer|posting)|for\s+hire|(?:hiring|looking\s+for)\s+(?:a|an)\s+(?:\w+\s+)?(?:developer|dev|designer|freelancer|va|virtual\s+assistant|co-?founder|marketer|writer|engineer|contractor))\b/i,
    weight: -35,
    reason: 'a hiring post',
  },
  {
    re: /\b(?:solved|resolved|never\s*mind|found\s+(?:a|the|my)\s+(?:solution|answer|tool|app)|thanks\s+for\s+all\s+the\s+(?:replies|answers|suggestions))\b/i,
    weight: -15,
    reason: 'already solved',
  },
];

const KEYWORD_POINTS = 8;
const KEYWORD_POINTS_MAX = 24;
const TITLE_BONUS = 6;

/**
 * The rule-based intent score: the matched keywords give a base (more when the title names them), and
 * signs of shopping add to it; selling, hiring and solved posts take away. Deterministic and offline.
 */
export function scoreIntentByRules(text: IntentText, matches: TMatchReason[]): IntentScore {
  const all = `${text.title}\n${text.body}`;
  const keywords = [...new Set(matches.map((m) => m.keyword))];
  let score = Math.min(KEYWORD_POINTS_MAX, keywords.length * KEYWORD_POINTS);
  const reasons: string[] = [];
  if (keywords.length > 0) {
    const titled = matches.some((m) => m.field === 'title');
    if (titled) score += TITLE_BONUS;
    reasons.push(`mentions ${keywords.slice(0, 3).join(', ')}${titled ? ' in the title' : ''}`);
  }
  for (const s of [...BUYING, QUESTION, ...DAMPENERS]) {
    if (s.re.test(all)) {
      score += s.weight;
      reasons.push(s.reason);
    }
  }
  return { score: Math.max(0, Math.min(100, Math.round(score))), reasons };
}
