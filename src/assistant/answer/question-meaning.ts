import { conceptWords, queryConcepts, queryTerms } from '../../docs/index.js';
import { stem } from '../../docs/word-stem.js';

/** Weight of a concept that only an earlier question of the thread brought in. */
const EARLIER_WEIGHT = 0.35;
/** Weight of a concept that the page's title or headings already state. */
const STATED_BY_TITLE_WEIGHT = 0.5;
/**
 * Weight of a name of code the question holds (`MINTLIFY_ADMIN_KEY`, `RESET_WITH_SUMMARY`,
 * `useChat`): it is what the question asks about, and the few sentences naming it say what it is,
 * where the page's other sentences share the question's common words ("export", "api", "flows").
 */
const CODE_NAME_WEIGHT = 2;

interface Concept {
  /** Alternatives, each a list of stems that must all appear. */
  alternatives: string[][];
  weight: number;
}

/**
 * What a question asks about, for choosing the sentences that answer it: its words with the
 * docs' words for them (the synonym table search uses), stemmed; and, in a thread, the earlier
 * question's words, which weigh less. A sentence is scored by the concepts it holds; a concept
 * the page's title already states counts for less, so "how long does it take?" on a page titled
 * "Custom domain" prefers the sentence about how long, not one more sentence about domains.
 */
export class QuestionMeaning {
  private readonly concepts: Concept[];
  /** The newest question's own concepts. */
  private readonly own: Concept[];
  /** Text every stem of the concepts contains, to rule a unit out before cutting it into words. */
  private readonly probes: string[];

  constructor(
    readonly question: string,
    private readonly earlierQuestions: readonly string[] = [],
  ) {
    const own = toConcepts(question, 1);
    this.own = own;
    const ownTerms = new Set(own.flatMap((concept) => concept.alternatives.map((words) => words.join(' '))));
    const earlier = earlierQuestions
      .flatMap((text) => toConcepts(text, EARLIER_WEIGHT))
      .filter((concept) => !concept.alternatives.some((words) => ownTerms.has(words.join(' '))));
    this.concepts = [...own, ...earlier];
    this.probes = [
      ...new Set(
        this.concepts.flatMap((concept) =>
          concept.alternatives.map((words) =>
            probeOf(words.reduce((a, b) => (b.length > a.length ? b : a), '')),
          ),
        ),
      ),
    ];
  }

  /** What `score` gives a text holding every concept of the newest question, with no context. */
  get ownWeight(): number {
    return this.own.reduce((sum, concept) => sum + concept.weight * (this.rarity.get(concept) ?? 1), 0);
  }

  /**
   * The same question, each of its concepts weighed by how few of `texts` (the units an answer
   * chooses from) hold it: from 1 for a concept every text holds to 2 for one a single text holds,
   * on a log scale. Within one answer's candidates, a word that nearly every unit repeats (the
   * site's subject, the page's) tells none of them apart, and the word only a few hold is what the
   * question is about.
   */
  weighedBy(texts: readonly string[]): QuestionMeaning {
    const weighed = new QuestionMeaning(this.question, this.earlierQuestions);
    const total = texts.length;
    if (total < 2) return weighed;
    const stemsOf = texts.map((text) => new Set(queryTerms(text.toLowerCase(), 400).map(stem)));
    for (const concept of weighed.concepts) {
      const holding = stemsOf.filter((stems) =>
        concept.alternatives.some((words) => words.every((word) => stems.has(word))),
      ).length;
      weighed.rarity.set(concept, 1 + Math.log(total / Math.max(1, holding)) / Math.log(total));
    }
    return weighed;
  }

  /** Each concept's weight for how few units hold it (see `weighedBy`); 1 when unweighed. */
  private readonly rarity = new Map<Concept, number>();

  /** Stems of a page's title and headings, to pass to `score`. */
  contextOf(text: string): Set<string> {
    return new Set(queryTerms(text, 200).map(stem));
  }

  /** Whether `text` holds every concept of the newest question itself (not of earlier ones). */
  answeredBy(text: string): boolean {
    const stems = new Set(queryTerms(text, 400).map(stem));
    return (
      this.own.length > 0 &&
      this.own.every((concept) =>
        concept.alternatives.some((words) => words.every((word) => stems.has(word))),
      )
    );
  }

  /** How much of the question `text` holds (0 when nothing). */
  score(text: string, context: ReadonlySet<string>): number {
    // Most units hold none of the question's words; finding that out needs no word list.
    const lower = text.toLowerCase();
    if (!this.probes.some((probe) => lower.includes(probe))) return 0;
    const stems = new Set(queryTerms(lower, 400).map(stem));
    let score = 0;
    for (const concept of this.concepts) {
      if (!concept.alternatives.some((words) => words.every((word) => stems.has(word)))) continue;
      const stated = concept.alternatives.some((words) => words.every((word) => context.has(word)));
      score += concept.weight * (this.rarity.get(concept) ?? 1) * (stated ? STATED_BY_TITLE_WEIGHT : 1);
    }
    return score;
  }
}

/**
 * A substring of every word whose stem is `stem`: the stem itself, since stemming only cuts a
 * suffix, except that "-ies" becomes "-y" ("policies" -> "policy"), so a final "y" is left out.
 */
function probeOf(stem: string): string {
  return stem.endsWith('y') ? stem.slice(0, -1) : stem;
}

function toConcepts(text: string, weight: number): Concept[] {
  const names = codeNames(text);
  return queryConcepts(text).map((concept) => ({
    alternatives: conceptWords(concept).map((words) => words.map(stem)),
    weight: names.has(concept.term) ? CODE_NAME_WEIGHT * weight : weight,
  }));
}

/** A word written as code: joined by underscores, or with a capital after a small letter. */
const CODE_NAME =
  /(?<![\p{L}\p{N}_])(?:[\p{L}\p{N}]+_[\p{L}\p{N}_]*[\p{L}\p{N}]|\p{Ll}+\p{Lu}[\p{L}\p{N}]*)(?![\p{L}\p{N}_])/gu;

/** The names of code in `text`, lower-cased as the question's terms are. */
function codeNames(text: string): Set<string> {
  return new Set((text.match(CODE_NAME) ?? []).map((name) => name.toLowerCase()));
}
