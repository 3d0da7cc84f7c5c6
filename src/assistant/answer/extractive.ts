import { queryTerms, type SearchHit } from '../../docs/index.js';
import {
  askedFor,
  formBonus,
  isCommand,
  listsRequirements,
  quotedForm,
  type AnswerForm,
} from './answer-form.js';
import {
  BLOCK_CHARS,
  BLOCK_LINES,
  clip,
  codeShare,
  leadWithAnswer,
  leadsIn,
  refersBack,
  rowsAsked,
  wholeList,
  type ScoredUnit,
} from './blocks.js';
import { isOpening } from '../opening.js';
import { QuestionMeaning } from './question-meaning.js';
import { stem } from '../../docs/word-stem.js';
import { sentencesOf, textUnits, type TextUnit } from './sentences.js';
import {
  sourceNumber,
  sourcesOf,
  lineDeltas,
  type Answer,
  type Answerer,
  type AnswerInput,
  type AnswerSource,
} from './types.js';

/**
 * Confidence (see `confidence`) below which the best passage does not answer the question and the
 * answer declines, whatever else holds. Between this and `PHRASE_FREE_THRESHOLD` an answer also
 * needs a retrieved page holding two neighbouring words of the question side by side
 * (`AnswerInput.holdsPhrase`).
 *
 * Calibrated on off-topic questions that share common words with docs sites against reader
 * questions on two sites (over 200 of each). Confidence alone fitted the questions it was
 * calibrated on and no others: one bar at 0.47 kept 96-100% of the reader questions it was set
 * on, 87.5% of a set written afterwards, and declined 84-90% of the later off-topic sets. The
 * off-topic questions it let through had every word on some page ("how do I record my screen on
 * a Mac", "reverse a linked list in Java"), but each word on its own; reader questions nearly
 * always use a phrase of the docs ("custom domain", "table of contents"). With the phrase asked
 * for in the band between the two bars, the later set kept 90-93% of its reader questions and
 * declined 92-94% of its off-topic ones.
 *
 * Where the bar sits between two errors is a choice of which costs more, and a wrong decline does:
 * it tells a reader the docs are silent on what they cover, while an off-topic question answered
 * gets a citation the reader sees is beside the point. Weighing a wrongly declined reader question
 * as two off-topic questions answered, over the sets tuned on of three sites (14, 270 and 472
 * pages), 0.36 costs least of 0.32-0.38: against 0.38 it answers 6, 3 and 1 more reader questions
 * of 300, 300 and 80, and 2, 2 and no more off-topic ones of 296, 296 and 24; 0.34 and below
 * answer few more reader questions and many more off-topic ones.
 */
export const ANSWER_RELEVANCE_THRESHOLD = 0.36;
/** Confidence from which a first answer needs no phrase of the question on a retrieved page. */
export const PHRASE_FREE_THRESHOLD = 0.6;
/**
 * In the band between the two bars, a question of three words or more whose first page scores at
 * least this many times the next page's needs no phrase either (`standsOut`). Over 220 reader
 * questions and 128 off-topic ones per site (tuning data), 2 answered four more reader questions
 * and no more off-topic ones (1.8 one more reader question, 2.5 two fewer); with two words, a
 * page that quotes them both stands out ("What is the capital of France?").
 */
const STANDS_OUT = 2;
/**
 * A question of at least this many searchable words needs no phrase between the two bars. Long
 * reader questions in their own words ("two of us have the same page open in the browser editor at
 * the same time, are we going to overwrite each other's changes?") hold 0.4-0.6 of the page about
 * them and rarely the docs' phrase. On the tuning sets (300 reader questions per site), 8 took the
 * cited Hit@5 from 86.3% to 87.7% (mintlify) and 88.7% to 89.0% (pipecat); 9 and 10 gained fewer.
 * Long off-topic questions pay for it: of 120 written to share words with the docs (8-25 words:
 * "how do I change my zoom background image without installing the desktop app"), 8 (mintlify)
 * and 5 (pipecat) are answered with the rule, 6 and 2 without. They hold 0.25-0.37 of their first
 * page as often as the long reader questions the bar declines do: a lower bar for long questions
 * (0.3) answered 18 and 19 of them.
 */
const LONG_QUESTION_WORDS = 8;
/**
 * Below `ANSWER_RELEVANCE_THRESHOLD`, a question of three words or more is still answered when its
 * first page, of confidence `SINGLED_OUT_THRESHOLD` or more, scores at least `STANDS_FAR_OUT` times
 * the next and a retrieved page holds a phrase of it. Long questions in a reader's own words hold a small
 * share of any page ("talking head avatar from Simli that lip-syncs to the bot's voice"), yet
 * single out the page about them. Over 260 reader questions and 152 off-topic ones per site, this
 * answered two more reader questions and no off-topic one; an off-topic question with a phrase on
 * a page stood at most 2.06 times the next page ("translate good morning into Japanese").
 */
const SINGLED_OUT_THRESHOLD = 0.25;
const STANDS_FAR_OUT = 2.5;
/**
 * Weight of `SearchHit.about` in the confidence of a first answer, against 0.7 for the page's
 * relevance: words a page holds in its body, in passing, count less than words it is about.
 * 0.3 declined the most off-topic questions without losing a reader question (0.2 and 0.4 less).
 */
const ABOUT_WEIGHT = 0.3;
/**
 * The bar for a follow-up in a thread that already has an answer: it leans on that answer for
 * its subject ("how long does it take?"), so a lower share of its own words is enough.
 */
const FOLLOW_UP_RELEVANCE_THRESHOLD = 0.3;
/**
 * Once the question is answered, a further retrieved page is cited when it holds at least this
 * share of the question. Readers' words are spread over pages: the page that answers often holds
 * only a third or a quarter of them (it says "secrets" where the reader wrote "keys"), and
 * listing it costs a line, while leaving it out loses the answer. Below this a page matched on one
 * common word.
 */
const CITE_RELEVANCE_THRESHOLD = 0.15;
/** Weight of the question's words in the heading of the section a unit is in. */
const HEADING_WEIGHT = 0.6;
/** Share of the question a heading must name to count (see `unitsOf`). */
const HEADING_SHARE = 0.5;
/**
 * Characters of prose in one answer (code blocks come on top), with `FIRST_PAGE_UNITS` and
 * `QUOTED_PASSAGES`. The sentence that states a fact is often not the one sharing most words with
 * the question (it says "Stop it with SIGTERM" to "how do I shut the server down"), so an answer
 * quoting a little more of the pages it cites states it more often. On the answer-text facts of
 * 331 questions tuned on (three sites), 1,400 characters, four units of the first page and four
 * pages quoted stated 283 against 278 with 1,100, three and three, and more on each site (87, 97
 * and 99 against 85, 95 and 98). 1,600 characters and five units stated as many (283); 1,250
 * characters fewer (281); five pages quoted alike one more (284). A page past the fourth, or past
 * the budget, is quoted by one sentence instead, when it holds some of the question (`KEPT_ROOM`).
 */
const PROSE_BUDGET = 1400;
/** Units of the page quoted first chosen for holding the question (see `PROSE_BUDGET`). */
const FIRST_PAGE_UNITS = 4;
/** Longest sentence quoted only because it follows a chosen one in its paragraph. */
const NEXT_SENTENCE_LENGTH = 240;
/** Longest paragraph between a lead-in and the block it announces. */
const NOTE_LENGTH = 2 * NEXT_SENTENCE_LENGTH;
/**
 * Passages quoted; a further cited page is quoted by one sentence when it holds some of the
 * question (see `KEPT_ROOM`), and listed by title otherwise (see `PROSE_BUDGET`).
 */
const QUOTED_PASSAGES = 4;
/** Pages whose units are weighed for quoting: those quoted, and one more that may lead instead. */
const QUOTE_CANDIDATES = QUOTED_PASSAGES + 1;
/**
 * How many times the first page's best unit's share of the question a later page's must hold to
 * be quoted first: the first page is usually right (its rank weighs all of the page), so a later
 * one must hold clearly more in one place. When it was set, on the answer-text facts of the sets
 * tuned on (three sites), 2 stated the most; 1.25, 1.5 and 3 one or two fewer on docwright's docs
 * and none more elsewhere.
 */
const LEAD_MARGIN = 2;
/**
 * Characters of prose a later page holding some of the question is quoted in when the budget is
 * spent: one sentence. Room for more (300, 450) stated one answer fewer on docwright's docs. Giving
 * every such page this room, not only one as good as the first, stated 286 of the 331 answer-text
 * facts tuned on against 283, one more on each site, for about 200 more characters per answer.
 */
const KEPT_ROOM = NEXT_SENTENCE_LENGTH;
/** Items of an unordered list quoted with the one chosen. */
const SIBLINGS = 6;
/**
 * Share of the prose budget the other points of a chosen list point may take. 0.4 stated one more
 * answer on the pipecat corpus than no bound or 0.6, and as many elsewhere; 0.25 no more.
 */
const POINTS_SHARE = 0.4;
const PROCEDURAL =
  /\b(how|install|configure|set ?up|setup|command|example|run|create|add|enable|use|code)\b/i;
/**
 * The words a question opens with: a request that opens with none of them and asks nothing ("end the
 * pipeline after a period with no activity", "trace the pipeline with OpenTelemetry") is a task
 * put as an order, answered like "how do I…", code included.
 */
const ASKS =
  /^\s*(what|what's|which|who|whom|whose|why|when|where|how|is|are|was|were|am|do|does|did|can|could|should|would|will|may|might|must|has|have|had|i|i'm|i've|my|our|we|it|there)\b/i;
const NO_CONTEXT: ReadonlySet<string> = new Set();
/** A reader asking to see something again. */
const REPEAT = /\b(again|repeat|remind me|once more)\b/i;

/** Whether a question asks how to do something, so that its answer quotes the code that does it. */
export function isTask(question: string): boolean {
  return PROCEDURAL.test(question) || (!ASKS.test(question) && !question.includes('?'));
}

interface Excerpt {
  passage: SearchHit;
  /** Quoted units; empty for a page that is only listed. */
  units: ScoredUnit[];
}

/**
 * The offline answer: for each retrieved page that holds enough of the
 * question, in rank order, its sentences, list items, tables or code closest in meaning to the
 * question, cited; pages past the first few are listed. When even the best passage holds too
 * little of the question, it says the docs do not cover it instead of guessing. In a thread,
 * passages the earlier answers already showed are not shown again unless the reader asks.
 */
export class ExtractiveAnswerer implements Answerer {
  readonly name = 'extractive';

  /** `answerBar`: the confidence a first answer needs (see `ANSWER_RELEVANCE_THRESHOLD`). */
  constructor(private readonly answerBar = ANSWER_RELEVANCE_THRESHOLD) {}

  answer(input: AnswerInput): Answer {
    const question = input.conversation.at(-1)?.text ?? input.query;
    const passages = distinctPages(input.passages);
    // A question that leans on an answer given before is judged as part of that exchange: its
    // own words are few ("can I turn them off?"). A question of its own in a thread is judged as
    // a first question is.
    const answered =
      input.followUp &&
      input.conversation
        .slice(0, -1)
        .some((turn) => turn.role === 'assistant' && !turn.text.startsWith(NOT_COVERED));
    const words = queryTerms(input.query).length;
    // The rules for long and singling-out questions count the reader's own words, not those of
    // the context or the earlier turns the search added.
    const own = queryTerms(question).length;
    const best = Math.max(
      0,
      ...passages.map((passage) => (answered ? passage.relevance : confidence(passage, words))),
    );
    const threshold = answered ? FOLLOW_UP_RELEVANCE_THRESHOLD : this.answerBar;
    const unphrased =
      !answered &&
      best < PHRASE_FREE_THRESHOLD &&
      !(own > 2 && standsOut(passages, STANDS_OUT)) &&
      own < LONG_QUESTION_WORDS &&
      !input.holdsPhrase();
    // Below the bar, a question whose words single out one page far ahead of the rest, a phrase
    // of which a retrieved page holds, is about that page in the reader's words.
    const first = passages[0];
    const singledOut =
      !answered &&
      own > 2 &&
      first !== undefined &&
      confidence(first, words) >= SINGLED_OUT_THRESHOLD &&
      standsOut(passages, STANDS_FAR_OUT) &&
      input.holdsPhrase();
    // Every word of the question on one page: the docs cover it in their own vocabulary, whatever
    // the page's headings say (see `holdsWholeQuestion`).
    const whole = !answered && words > 1 && holdsWholeQuestion(passages);
    if (!whole && ((best < threshold && !singledOut) || words === 0 || unphrased)) {
      return { sources: [], text: toAsync(lineDeltas(notCovered(passages[0]))) };
    }
    const earlier = input.conversation.slice(0, -1);
    const meaning = new QuestionMeaning(
      question,
      earlier.filter((turn) => turn.role === 'user').map((turn) => turn.text),
    );
    const shown = REPEAT.test(question)
      ? ''
      : normalize(
          earlier
            .filter((turn) => turn.role === 'assistant')
            .map((turn) => turn.text)
            .join('\n'),
        );
    const cited = passages.filter(
      (passage, rank) => rank === 0 || passage.relevance >= CITE_RELEVANCE_THRESHOLD,
    );
    const excerpts = selectExcerpts(cited, meaning, isTask(question), shown, quotedForm(question));
    const sources = sourcesOf(cited);
    return { sources, text: toAsync(lineDeltas(compose(excerpts, sources))) };
  }
}

/**
 * Whether the first page stands out from the next one by `factor`: a question whose words single
 * out one page is about that page, even where its words for the subject are not the page's ("a
 * definition when someone hovers over a word" and the tooltips page). Words an off-topic question
 * shares with the docs are common ones, spread over many pages that rank close together. Search
 * scores are comparable only within one search, so the ratio is what is compared, and without the
 * boosts of the reader's page or the thread. A page found alone has nothing to stand out from: a
 * question whose words only one page holds may hold only one of them. With sections near in
 * meaning fused in, the scores are reciprocal ranks, and the test does not apply.
 */
function standsOut(pages: SearchHit[], factor: number): boolean {
  const [first, second] = pages;
  const [top, next] = [first?.lexicalScore, second?.lexicalScore];
  return top !== undefined && next !== undefined && top >= factor * next;
}

/**
 * Whether a retrieved page holds every word of the question (each word, or the docs' word for it,
 * somewhere on the page): its relevance is whole. A decline says the docs do not cover the
 * question, and a page holding all of its words, none unknown to the site, is the docs covering it.
 * The other rules ask for more (a phrase of the question, its words in the page's headings)
 * because they judge a page holding part of a question; on a small site they refuse what it plainly
 * answers, since a few long pages name few of their subjects in headings ("what port does it use
 * and how do I change it?" and a configuration page whose table lists the port). On a large site a
 * question unrelated to it seldom has every word on one page: its words, when the site has them,
 * are spread over many.
 */
function holdsWholeQuestion(passages: SearchHit[]): boolean {
  return passages.some((passage) => passage.relevance >= WHOLE);
}

/** Relevance counted as whole (the shares are sums of floating-point weights). */
const WHOLE = 1 - 1e-9;

/**
 * How sure a first answer can be that a passage answers: its relevance, leaning on what it is
 * about. A page whose title, headings and summary name none of the question's words is not about
 * it, however many of them its body holds: a page quoting "What is the capital of France?" as a
 * test example holds every word of that question. A one-word question ("install") is the
 * exception: the page's own word for it may differ ("Set up the app"), and its body holding the
 * word is all the evidence there is.
 */
export function confidence(passage: SearchHit, words: number): number {
  if (passage.about === 0 && words > 1) return 0;
  return (1 - ABOUT_WEIGHT) * passage.relevance + ABOUT_WEIGHT * passage.about;
}

/**
 * One passage per page, in rank order: a page takes one citation (its best section's link), and
 * the text of its other retrieved sections joins the best one's, so a sentence further down the
 * page can still answer.
 */
function distinctPages(passages: SearchHit[]): SearchHit[] {
  const pages = new Map<string, SearchHit>();
  for (const passage of passages) {
    const page = pages.get(passage.urlPath);
    const section = { heading: passage.heading, anchor: passage.anchor, body: passage.body };
    if (page) {
      page.body = `${page.body}\n\n${passage.body}`;
      sectionsOf.get(page)?.push(section);
    } else {
      const copy = { ...passage };
      pages.set(passage.urlPath, copy);
      sectionsOf.set(copy, [section]);
    }
  }
  return [...pages.values()];
}

/** The sections a page's joined passage is made of, each with its heading. */
const sectionsOf = new WeakMap<SearchHit, { heading: string; anchor: string; body: string }[]>();

/**
 * A page's text units, each with how much of the question its section's heading names: the
 * section headed "Inputs" answers "what inputs does the action take" with its table, whose cells
 * repeat none of the question's words.
 */
function unitsOf(
  passage: SearchHit,
  meaning: QuestionMeaning,
  form: AnswerForm,
): (TextUnit & { headed: number; heading: string })[] {
  const sections = sectionsOf.get(passage) ?? [
    { heading: passage.heading, anchor: passage.anchor, body: passage.body },
  ];
  let blocks = 0;
  const asked = askedFor(meaning.question);
  const focus = asked === undefined ? undefined : stem(asked.toLowerCase());
  return sections.flatMap(({ heading, anchor, body }) => {
    // A page's opening is headed by the page's title: it says what the page's subject is.
    const names = isOpening({ anchor, heading }) ? passage.pageTitle : heading;
    // A heading naming one word of a longer question ("docwright job create" for "how many files
    // can one job change") says little about what its section answers.
    const named = names === '' ? 0 : meaning.score(names, new Set());
    // A section listing what must be in place first answers a question asking for that, whatever
    // its words ("Requirements" for "what do I need installed before I start?").
    // A heading naming what a "which" question asks for ("Available regions" for "which regions
    // can agents run in") lists it, though it names one word of the question.
    const headed =
      form === 'requirements' && listsRequirements(heading)
        ? meaning.ownWeight
        : named >= HEADING_SHARE * meaning.ownWeight
          ? named
          : focus !== undefined && headingStems(heading).has(focus)
            ? HEADING_SHARE * meaning.ownWeight
            : 0;
    // The block right under the heading is what the heading announces; the rest of the section
    // is less sure to be.
    const units = textUnits(body).map((unit) => ({
      ...unit,
      block: unit.block + blocks,
      headed: unit.block === 0 ? headed : headed / 2,
      heading,
    }));
    blocks += (units.at(-1)?.block ?? blocks) - blocks + 1;
    return units;
  });
}

/** The stems of a heading's words. */
function headingStems(heading: string): Set<string> {
  return new Set(queryTerms(heading, 50).map(stem));
}

function selectExcerpts(
  passages: SearchHit[],
  question: QuestionMeaning,
  procedural: boolean,
  shown: string,
  form: AnswerForm,
): Excerpt[] {
  // The question's words are weighed by how few of the retrieved units hold them: the word only a
  // few sentences share names what the question is about ("renovate" in "let renovate trigger docs
  // changes"), where the words every unit holds ("docs", "changes") tell none of them apart.
  const meaning = question.weighedBy(
    passages
      .slice(0, QUOTE_CANDIDATES)
      .flatMap((passage) => textUnits(passage.body).map((unit) => unit.text)),
  );
  const candidates = passages.slice(0, QUOTE_CANDIDATES).map((passage) => {
    const context = meaning.contextOf(`${passage.pageTitle} ${passage.headings.join(' ')}`);
    const scored = unitsOf(passage, meaning, form).map(({ headed, ...whole }, index) => {
      const unit = whole.kind === 'table' ? rowsAsked(whole, meaning, context) : whole;
      // The question's words a piece of the unit holds, with what its title and headings state
      // weighing less (`context`) or not (no context). Under a heading that names the question, a
      // unit answers it even without its words. A piece of the form the question asks for (a yes
      // or no with its condition, a default, a step) holds more of it.
      const weigh = (piece: TextUnit, within: ReadonlySet<string>) => {
        const held = meaning.score(piece.text, within) + HEADING_WEIGHT * headed;
        return held + formBonus(piece, form, held);
      };
      // Code quotes less well than prose, except the command a question about a command asks for.
      const code = unit.kind === 'code' && !(form === 'command' && isCommand(unit)) ? 0.25 : 0;
      // How much of the question the unit holds, its page's title aside: comparable between pages.
      const holds = unit.kind === 'code' ? 0 : weigh(unit, NO_CONTEXT);
      // A list item longer than a short quote is scored by its sentences too: when a page has room
      // for a sentence only, the one of the item that answers is quoted ("In particular, workflows
      // are never changed by a job." at the end of an item of five lines).
      const parts =
        unit.kind === 'item' && unit.text.length > NOTE_LENGTH
          ? sentencesOf(unit.text).map((text) => ({
              text,
              score: weigh({ kind: 'sentence', text, block: unit.block }, context),
            }))
          : undefined;
      return { ...unit, index, score: weigh(unit, context) - code, holds, ...(parts && { parts }) };
    });
    // A unit holding every word of the newest question answers it, even if an earlier answer
    // showed it: the reader asks again about what it says ("which Node version do I need?").
    const units = scored.filter(
      (unit) => shown === '' || !shown.includes(normalize(unit.text)) || meaning.answeredBy(unit.text),
    );
    // How much of the question the page's best sentence, item or table holds (or its heading
    // names), its title aside: comparable between pages, unlike `score`, which discounts what a
    // page's title states.
    const holds = Math.max(0, ...units.map((unit) => unit.holds));
    return { passage, units, holds };
  });
  // Quoted first: the first page, unless a later one holds clearly more of the question in one
  // unit. The first page is ranked on all its words; a later page whose one sentence holds the
  // question ("allow the docwright origin in connect-src" for a widget the Content-Security-Policy
  // blocks) answers it, and quoted after the first page's points it is crowded out.
  // A question asking for a command is answered by the page retrieval put first for holding one.
  const lead =
    form === 'command'
      ? 0
      : candidates.reduce(
          (best, candidate, rank) =>
            rank > 0 &&
            candidate.holds >= LEAD_MARGIN * candidates[best]!.holds &&
            candidate.holds > candidates[best]!.holds
              ? rank
              : best,
          0,
        );
  const order = [lead, ...candidates.map((_, rank) => rank).filter((rank) => rank !== lead)];
  let budget = PROSE_BUDGET;
  const chosen = new Map<number, ScoredUnit[]>();
  for (const [position, rank] of order.entries()) {
    const { holds } = candidates[rank]!;
    // A page holding as much of the question in one unit as the page quoted first is quoted even
    // when that page's table or list spent the budget: the limit on the answer's length should not
    // leave out the sentence that answers ("at most 200 changed files" after a table of flags).
    const asGood = position > 0 && holds > 0 && holds >= candidates[lead]!.holds;
    // Any other page holding some of the question is quoted by its best sentence when the budget
    // is spent, or when it is past the pages quoted: the pages are quoted in rank order, and the
    // rank weighs a whole page, where one of a later page's sentences may be the answer ("Set
    // `DOCWRIGHT_THREAD_DAYS`…" on the third page cited for "delete old conversations"). A page
    // holding none of it is only listed.
    if (holds === 0 && (position >= QUOTED_PASSAGES || budget <= 0)) continue;
    const room = asGood ? Math.max(budget, KEPT_ROOM) : budget > 0 ? budget : KEPT_ROOM;
    const units = leadWithAnswer(
      chooseUnits(
        candidates[rank]!.units,
        position === 0 ? FIRST_PAGE_UNITS : budget > 0 ? 2 : 1,
        procedural,
        room,
        form,
      ),
      procedural || form === 'command' || form === 'steps' || form === 'any',
    );
    budget -= units.filter((unit) => unit.kind !== 'code').reduce((sum, unit) => sum + unit.text.length, 0);
    chosen.set(rank, units);
  }
  const excerpts = passages.map((passage, rank) => ({ passage, units: chosen.get(rank) ?? [] }));
  // The page quoted first comes first in the text; the sources keep the search's order.
  return lead === 0 ? excerpts : [excerpts[lead]!, ...excerpts.filter((_, rank) => rank !== lead)];
}

function chooseUnits(
  units: ScoredUnit[],
  count: number,
  procedural: boolean,
  budget: number,
  form: AnswerForm,
): ScoredUnit[] {
  // The first page quoted may quote a table or list longer than the prose budget, up to the bound
  // of a block: it is often the answer itself (a reference table of inputs).
  const room = budget >= PROSE_BUDGET ? Math.max(budget, BLOCK_CHARS) : budget;
  const fits = (unit: ScoredUnit) => unit.text.length <= (unit.kind === 'sentence' ? budget : room);
  // A list item too long to quote whole is quoted by its sentence that answers, when that fits.
  const shortened = units.flatMap((unit) => {
    if (unit.kind !== 'item' || fits(unit) || !unit.parts) return [];
    const [part] = [...unit.parts].sort((a, b) => b.score - a.score);
    return part && part.text.length <= budget
      ? [{ ...unit, kind: 'sentence' as const, text: part.text, score: part.score, parts: undefined }]
      : [];
  });
  const prose = [...units.filter((unit) => unit.kind !== 'code' && fits(unit)), ...shortened];
  const best = prose
    .filter((unit) => unit.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count);
  const chosen = new Map(best.map((unit) => [unit.index, unit]));
  // A list item rarely stands alone: bring its siblings, the first few of a list of points (each
  // more of them crowds out the next page), every step of a step list (cut short, it leaves the
  // task undone), within bounds.
  // A list of points is cut to its share of the budget: its points past the chosen one are more
  // of the same page, and each crowds out the next page, which may hold the answer.
  for (const unit of best.filter((item) => item.kind === 'item')) {
    let chars = 0;
    for (const sibling of wholeList(units, unit.block).slice(0, unit.ordered ? BLOCK_LINES : SIBLINGS)) {
      if (
        !unit.ordered &&
        sibling.index !== unit.index &&
        (chars += sibling.text.length) > budget * POINTS_SHARE
      )
        continue;
      chosen.set(sibling.index, sibling);
    }
  }
  // The sentence after a chosen one in the same paragraph often finishes its thought ("Rotating
  // the token invalidates the previous one. Provisioning stops working until…").
  for (const unit of best.filter((item) => item.kind === 'sentence')) {
    const next = units.find((other) => other.index === unit.index + 1);
    if (next?.kind === 'sentence' && next.block === unit.block && next.text.length <= NEXT_SENTENCE_LENGTH)
      chosen.set(next.index, next);
  }
  // A sentence that refers back ("This module is built for outbound calling", "It then…") is
  // quoted with the sentence before it in its paragraph, which names what it refers to.
  for (const unit of best.filter((item) => refersBack(item))) {
    const previous = units.find((other) => other.index === unit.index - 1);
    if (
      previous?.kind === 'sentence' &&
      previous.block === unit.block &&
      previous.text.length <= NEXT_SENTENCE_LENGTH
    )
      chosen.set(previous.index, previous);
  }
  // A sentence of a paragraph that describes a name (a field, an option) is quoted with the
  // paragraph's first sentence, which names it: "Required when using `RESET_WITH_SUMMARY`" says
  // nothing without `summary_prompt`.
  for (const unit of best.filter((item) => item.term !== undefined)) {
    const first = units.find((other) => other.block === unit.block);
    if (first && first.index !== unit.index && first.text.length <= NEXT_SENTENCE_LENGTH)
      chosen.set(first.index, first);
  }
  // A lead-in announces the block after its paragraph ("Disable interruptions:" and its code, "To
  // set it up:" and its steps): without it the sentence promises what the answer leaves out. So
  // does a sentence alone in its paragraph that names "these" things the block then lists.
  for (const unit of best) {
    if (!leadsIn(unit) && !pointsAhead(units, unit)) continue;
    const next = announced(units, unit);
    if (!next) continue;
    // The rest of the paragraph comes with it, so the block is not quoted apart from its lead-in.
    for (const between of units.filter((other) => other.index > unit.index && other.index < next.index))
      chosen.set(between.index, between);
    if (next.kind === 'code' || next.kind === 'table')
      chosen.set(next.index, next.kind === 'code' ? { ...next, text: clip(next.text) } : next);
    else if (next.kind === 'item')
      for (const item of wholeList(units, next.block)) chosen.set(item.index, item);
  }
  // A section that is mostly code answers with its code: a migration's before/after, an SDK call.
  const code = units
    .filter((unit) => unit.kind === 'code')
    .sort((a, b) => b.score - a.score || a.index - b.index)[0];
  // With no unit holding the question's words, a code block stands in for the answer only when a
  // command is what is asked; otherwise the section's opening says more than its first example.
  const mostlyCode =
    code !== undefined && (codeShare(units) > 0.5 || (best.length === 0 && form === 'command'));
  // A command the question asks for (scored up by its form) is quoted even when no sentence is.
  const asked = code !== undefined && code.score > 0 && isCommand(code);
  if (code && (mostlyCode || asked || (procedural && best.length > 0)))
    chosen.set(code.index, { ...code, text: clip(code.text) });
  if (chosen.size === 0) {
    // Retrieved for words the reader used, but no unit repeats them: its opening says what it is.
    const opening = prose[0];
    if (opening) chosen.set(opening.index, opening);
  }
  return [...chosen.values()].sort((a, b) => a.index - b.index);
}

/**
 * Whether a sentence that opens with "This" or "These" and has nothing before it in its paragraph
 * points at the block right after its paragraph ("These shortcuts work in every mode." over the
 * table of shortcuts): with no sentence before it to refer back to, what it names is what follows.
 */
function pointsAhead(units: ScoredUnit[], unit: ScoredUnit): boolean {
  if (!refersBack(unit) || units.some((other) => other.block === unit.block && other.index < unit.index))
    return false;
  const paragraph = units.filter((other) => other.block === unit.block);
  const after = units.find((other) => other.index > unit.index && other.block !== unit.block);
  return paragraph.length === 1 && after !== undefined && after.kind !== 'sentence';
}

/**
 * The block a lead-in announces: the one after its paragraph, or, when that is a short paragraph of
 * prose (a note: "You only need `apiHost` if you self-host."), the list, table or code after it.
 */
function announced(units: ScoredUnit[], leadIn: ScoredUnit): ScoredUnit | undefined {
  const next = units.find((other) => other.index > leadIn.index && other.block !== leadIn.block);
  if (next?.kind !== 'sentence') return next;
  const note = units.filter((other) => other.block === next.block);
  const after = units.find((other) => other.index > next.index && other.block !== next.block);
  const short = note.reduce((sum, other) => sum + other.text.length, 0) <= NOTE_LENGTH;
  return short && after !== undefined && after.kind !== 'sentence' ? after : next;
}

function compose(excerpts: Excerpt[], sources: AnswerSource[]): string {
  const number = (excerpt: Excerpt) => sourceNumber(sources, excerpt.passage);
  const quoted = excerpts.filter((excerpt) => excerpt.units.length > 0);
  const listed = excerpts.filter((excerpt) => excerpt.units.length === 0);
  const parts = quoted.map((excerpt, position) => {
    const opensWithProse = excerpt.units[0]?.kind === 'sentence';
    // Named by the section its first quote comes from: the quotes of a page may lead with a later
    // section's ("Start the server" and its command, before the requirements).
    const label = `**${excerpt.units[0]?.heading || excerpt.passage.heading || excerpt.passage.pageTitle}:**`;
    const lead = position === 0 && opensWithProse ? '' : opensWithProse ? `${label} ` : `${label}\n`;
    return `${lead}${render(excerpt.units)} [${number(excerpt)}]`;
  });
  if (listed.length > 0) {
    const lines = listed.map((excerpt) => `- ${titleOf(excerpt.passage)} [${number(excerpt)}]`);
    parts.push(`See also:\n${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

function titleOf(passage: SearchHit): string {
  return passage.heading && passage.heading !== passage.pageTitle
    ? `${passage.pageTitle} — ${passage.heading}`
    : passage.pageTitle;
}

function render(units: ScoredUnit[]): string {
  const lines: string[] = [];
  let sentences: string[] = [];
  const flush = () => {
    if (sentences.length > 0) lines.push(sentences.join(' '));
    sentences = [];
  };
  let step = 0;
  for (const [position, unit] of units.entries()) {
    if (unit.kind === 'sentence') sentences.push(unit.text);
    else {
      flush();
      // A step keeps its number, counted from the first step quoted of its list.
      const previous = units[position - 1];
      step = unit.ordered && previous?.ordered && previous.block === unit.block ? step + 1 : 1;
      const marker = unit.ordered ? `${step}.` : '-';
      lines.push(unit.kind === 'item' ? `${marker} ${unit.text}` : `\n${unit.text}\n`);
    }
  }
  flush();
  return lines.join('\n').trim();
}

/** Text compared for "already shown": words only, so Markdown around a quote does not hide it. */
function normalize(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

const NOT_COVERED = "I couldn't find an answer to that in the docs, so I won't guess.";

function notCovered(closest: SearchHit | undefined): string {
  const text = NOT_COVERED;
  return closest ? `${text} The closest page is [${closest.pageTitle}](${closest.url}).` : text;
}

async function* toAsync(deltas: Iterable<string>): AsyncGenerator<string> {
  for (const delta of deltas) {
    yield delta;
    await Promise.resolve();
  }
}
