import { createHash } from 'node:crypto';
import { queryTerms } from '../../docs/index.js';

/** A question to group: its words and the pages the docs search found closest to it. */
export interface GroupedQuestion {
  text: string;
  /** URL paths of the closest pages, best first. */
  pages: string[];
  /** Its words no page of the docs holds: the thing it asks about, when the docs never name it. */
  unknownWords: string[];
}

/**
 * Share of words two questions must have in common to be about the same thing on words alone
 * (Jaccard of their stemmed terms). "how do I translate the docs" and "can the docs be translated
 * into French" share two of four terms.
 */
const SAME_WORDS = 0.4;
/**
 * With the same closest page, fewer words in common will do: the docs search saw the same subject
 * in both ("single sign-on with Okta" and "SAML login for my company", both nearest the keys page,
 * still need one term in common).
 */
const SAME_PAGE_WORDS = 0.2;

/** Words of a question that say it is a question, not what it is about. */
const FILLER = new Set([
  'possible',
  'way',
  'anyone',
  'please',
  'help',
  'want',
  'need',
  'know',
  'there',
  'any',
  'able',
  'does',
  // "a good recipe", "the best way": they ask for a judgement, not about a subject.
  'good',
  'best',
]);

/**
 * The terms a question is compared by: the search's own terms (stop words dropped), cut to a
 * crude stem so that "translate", "translated" and "translation" meet.
 */
function questionTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const term of queryTerms(text, 64)) {
    if (FILLER.has(term)) continue;
    terms.add(stem(term));
  }
  return [...terms];
}

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ions', 'ion', 'ers', 'er', 'ed', 'es', 's', 'ly'];

function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  let stemmed = word;
  const suffix = SUFFIXES.find((ending) => word.endsWith(ending) && word.length - ending.length >= 4);
  if (suffix) stemmed = word.slice(0, -suffix.length);
  stemmed = stemmed.replace(/e$/, '');
  // "translate" and "translation" meet at "transl", "create" and "creation" at "creat".
  return stemmed.length >= 6 ? stemmed.replace(/at$/, '') : stemmed;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * Groups questions about the same thing: two questions are linked when they share a word the docs
 * never use ("GitLab" in "is GitLab supported?" and "merge requests on GitLab"), or enough words,
 * or fewer words and their closest page; a group is what links reach (single link), except that
 * groups about different things the docs never name stay apart. Returns the groups as lists of
 * indexes into `questions`, in the order their first question comes.
 */
export function groupQuestions(questions: readonly GroupedQuestion[]): number[][] {
  const terms = questions.map((question) => new Set(questionTerms(question.text)));
  const unknown = questions.map((question) => new Set(question.unknownWords.map(stem)));
  const parent = questions.map((_, index) => index);
  const root = (index: number): number => {
    let at = index;
    while (parent[at] !== at) at = parent[at] = parent[parent[at]!]!;
    return at;
  };
  // Identical wordings are one question: compare each distinct set of terms once.
  const byWords = new Map<string, number>();
  for (const [index, set] of terms.entries()) {
    const key = `${[...set].sort().join(' ')}|${[...unknown[index]!].sort().join(' ')}`;
    const same = byWords.get(key);
    if (same === undefined) byWords.set(key, index);
    else parent[root(index)] = root(same);
  }
  const distinct = [...byWords].map(([key, index]) => ({ key, index }));
  const links: { a: number; b: number; strength: number; key: string }[] = [];
  for (let i = 0; i < distinct.length; i += 1) {
    const a = distinct[i]!.index;
    for (let j = i + 1; j < distinct.length; j += 1) {
      const b = distinct[j]!.index;
      const words = jaccard(terms[a]!, terms[b]!);
      const samePage =
        questions[a]!.pages[0] !== undefined && questions[a]!.pages[0] === questions[b]!.pages[0];
      const sameUnknown = [...unknown[a]!].some((word) => unknown[b]!.has(word));
      if (sameUnknown || words >= SAME_WORDS || (samePage && words >= SAME_PAGE_WORDS)) {
        const [first, second] = [distinct[i]!.key, distinct[j]!.key].sort();
        links.push({ a, b, strength: (sameUnknown ? 1 : 0) + words, key: `${first}\n${second}` });
      }
    }
  }
  // Strongest links first, ties by the wordings: the groups do not depend on the questions' order.
  links.sort((x, y) => y.strength - x.strength || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  // The things the docs never name that each group asks about. A group about one such thing never
  // joins a group about another, not even through a question about neither: "is there a Salesforce
  // integration?" and "is there a Zendesk integration?" share their words, their page and perhaps
  // an unserved "which integrations are there?", and ask about two things.
  const things = questions.map((_, index) => unknown[index]!);
  for (const { a, b } of links) {
    const [x, y] = [root(a), root(b)];
    if (x === y) continue;
    const [thingsX, thingsY] = [things[x]!, things[y]!];
    if (thingsX.size > 0 && thingsY.size > 0 && ![...thingsX].some((word) => thingsY.has(word))) continue;
    parent[y] = x;
    things[x] = new Set([...thingsX, ...thingsY]);
  }
  const groups = new Map<number, number[]>();
  for (const index of questions.keys()) {
    const key = root(index);
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return [...groups.values()];
}

/**
 * The share (0-1) of the distinct terms of a group's questions that no page of the docs holds. A
 * topic the docs miss is one unknown thing ("SharePoint") that readers put in the docs' own words
 * ("import", "sync pages", "integration"): the more wordings, the smaller the share. A question
 * about something else altogether ("the capital of France", "training for a marathon") is made of
 * words the docs never use, however it is worded; a word it shares with the docs is incidental.
 */
export function unknownShare(questions: readonly GroupedQuestion[]): number {
  const terms = new Set(questions.flatMap((question) => questionTerms(question.text)));
  if (terms.size === 0) return 0;
  const unknown = new Set(questions.flatMap((question) => question.unknownWords.map(stem)));
  let held = 0;
  for (const term of terms) if (unknown.has(term)) held += 1;
  return held / terms.size;
}

/**
 * The index (into `members`) of the question that stands for a group: the one sharing the most
 * words with the others.
 */
export function representative(members: readonly string[]): number {
  const sample = members.slice(0, 60).map((text) => new Set(questionTerms(text)));
  let best = 0;
  let bestScore = -1;
  for (const [index, terms] of sample.entries()) {
    let score = 0;
    for (const other of sample) score += jaccard(terms, other);
    if (score > bestScore) [best, bestScore] = [index, score];
  }
  return best;
}

/**
 * A group's id, the same on every call over the same questions and stable as the period slides:
 * a hash of its three most frequent terms and its most frequent closest page, not of any one
 * question (which leaves the period first).
 */
export function groupId(questions: readonly GroupedQuestion[]): string {
  const termCounts = new Map<string, number>();
  const pageCounts = new Map<string, number>();
  for (const question of questions) {
    for (const term of questionTerms(question.text)) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
    const page = question.pages[0];
    if (page) pageCounts.set(page, (pageCounts.get(page) ?? 0) + 1);
  }
  const terms = topKeys(termCounts, 3).sort();
  const page = topKeys(pageCounts, 1)[0] ?? '';
  const hash = createHash('sha256')
    .update(`${terms.join(' ')}\n${page}`)
    .digest('hex');
  return `gap_${hash.slice(0, 12)}`;
}

/** The `count` keys seen most often, ties by the key, for an order that does not depend on arrival. */
export function topKeys(counts: ReadonlyMap<string, number>, count: number): string[] {
  return [...counts.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, count)
    .map(([key]) => key);
}
