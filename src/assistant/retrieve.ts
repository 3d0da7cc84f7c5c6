import {
  buildRetrievalQuery,
  isFollowUp,
  pointsBack,
  pointsOnlyBack,
  queryTerms,
  type DocsIndex,
  type SearchFilter,
  type SearchHit,
} from '../docs/index.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';
import {
  answerForm,
  askedFor,
  holdsInstallCommand,
  listsRequirements,
  quotedForm,
  statesDefault,
} from './answer/answer-form.js';
import { stem } from '../docs/word-stem.js';
import { fenceEnd, openingFence } from '../docs/page-syntax.js';
import { EVERYDAY_WORDS } from './everyday-words.js';
import { isOpening } from './opening.js';
import {
  ANSWER_RELEVANCE_THRESHOLD,
  PHRASE_FREE_THRESHOLD,
  confidence,
  isTask,
} from './answer/extractive.js';

/**
 * A message at least this share of whose words no page holds is not about the docs, whatever
 * came before it in the thread ("what is the plot of Hamlet"): it is judged on its own. A
 * follow-up in the reader's own words may hold one such word ("can I stop strangers from opening
 * them?"), rarely half. A message that only points back ("how long does it take to verify?") is
 * the exception: its few words say little, and a small site may use none of them.
 */
const UNKNOWN_WORD_SHARE = 0.5;

/** Sections of one page given to the answerer: the best, and the next that may hold the rest. */
const SECTIONS_PER_PAGE = 2;
/**
 * Sections of each page the thread cited that a follow-up's own words add. The answer to "what if
 * they never press pound?" is one paragraph of a long page, and the follow-up's few words often
 * rank it second or third there. On 74 follow-ups tuned on, 1, 2 and 3 sections let the answer
 * hold the text that answers 43, 45 and 48 times; 30 follow-ups never tuned on held it 8 times
 * with each.
 */
const FOLLOW_UP_SECTIONS_PER_PAGE = 3;

/** What retrieval needs of an assistant request. */
export interface RetrievalInput {
  conversation: ConversationTurn[];
  /** Distinct pages to retrieve (the spec's `retrievalPageSize`). */
  retrievalPageSize: number;
  filter?: SearchFilter | null;
  context?: ContextItem[];
  currentPath?: string;
  /** URL paths the previous answer of the thread cited: a follow-up is most likely about them. */
  citedPaths?: readonly string[];
}

export interface Retrieval {
  /** The text the docs were searched with. */
  query: string;
  /** Up to two sections of each of up to `retrievalPageSize` pages, best first. */
  passages: SearchHit[];
  /**
   * Whether a retrieved page holds two neighbouring words of the query side by side (see
   * `DocsIndex.holdsPhrase`); asked only when an answer is in doubt, and worked out once.
   */
  holdsPhrase: () => boolean;
  /**
   * Whether the newest message leans on the conversation before it ("can I turn them off?"): it
   * was searched together with the earlier question, and the pages the thread cited ranked higher.
   */
  followUp: boolean;
}

/**
 * The passages an answer is built from: the conversation becomes one query (a follow-up brings
 * in the question before it), and the pages the thread's last answer cited rank higher when the
 * newest message leans on it.
 */
export function retrieve(
  index: DocsIndex,
  input: RetrievalInput,
  queryVector?: readonly number[],
  leans?: boolean,
): Retrieval {
  // Decided once per question: it may take a search of its own (`answeredAlone`).
  const followUp = leans ?? leansOnThread(index, input);
  const query = searchText(input, followUp);
  const cited = followUp ? (input.citedPaths ?? []) : [];
  // Two sections of a page at most, and the page counted once: the answer cites pages. Searched
  // without the everyday words no page holds; the query stays the reader's.
  const sections = index.search(withoutUnheldEverydayWords(index, query, lastUserText(input.conversation)), {
    limit: input.retrievalPageSize * SECTIONS_PER_PAGE,
    maxPerPage: SECTIONS_PER_PAGE,
    filter: input.filter ?? undefined,
    currentPath: input.currentPath,
    citedPaths: cited.length > 0 ? cited : undefined,
    queryVector,
    snippets: false,
  });
  const pages = [...new Set(sections.map((hit) => hit.urlPath))].slice(0, input.retrievalPageSize);
  const passages = sections.filter((hit) => pages.includes(hit.urlPath));
  if (cited.length > 0) addFollowUpSections(index, passages, lastUserText(input.conversation), input);
  else {
    addParentSections(index, passages);
    addDefiningSections(index, passages, lastUserText(input.conversation), input);
    addCommandSection(index, passages, lastUserText(input.conversation), input);
    addOpeningSection(index, passages, lastUserText(input.conversation), input);
    addCodeSection(index, passages, lastUserText(input.conversation), input);
    addDefaultSection(index, passages, lastUserText(input.conversation), input);
  }
  let holds: boolean | undefined;
  const holdsPhrase = () => (holds ??= index.holdsPhrase(query, pages, passages[0]?.language));
  return { query, passages, holdsPhrase, followUp };
}

/** Searchable words a question keeps once everyday words no page holds are left out. */
const KEPT_WORDS = 2;

/**
 * `query` without the everyday words of `question` that no page holds ("play" in "is there a demo
 * project I can play with"): a word no page holds weighs the most in how much of a question a page
 * holds, so a common word the site happens never to use sinks every page under the bar of an
 * answer, though it says nothing of what is asked. Such a word is left out only when the question
 * keeps words of its own to search for, and only if it is an everyday word: a noun no page holds
 * ("recipe", "France") names what is asked, and a question about it is one the docs do not cover.
 */
function withoutUnheldEverydayWords(index: DocsIndex, query: string, question: string): string {
  const everyday = index.unknownWords(question).filter((word) => EVERYDAY_WORDS.has(word));
  if (everyday.length === 0) return query;
  const words = queryTerms(question);
  // What is left must name something: left of "can I call and play at work", "call" and "work"
  // are everyday words too, and say nothing of what the docs would answer.
  const kept = words.filter((word) => !everyday.includes(word));
  if (kept.length < KEPT_WORDS || kept.every((word) => EVERYDAY_WORDS.has(word))) return query;
  return everyday.reduce(
    (text, word) => text.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${word}(?![\\p{L}\\p{N}_])`, 'giu'), ' '),
    query,
  );
}

/**
 * `retrieve` with hybrid search when the index has vectors: the text the search will use is
 * embedded first, by `embed`, which returns undefined when the model fails (the search is then
 * full-text only).
 */
export async function retrieveHybrid(
  index: DocsIndex,
  input: RetrievalInput,
  embed: (text: string) => Promise<readonly number[] | undefined>,
): Promise<Retrieval> {
  if (!index.hasVectors) return retrieve(index, input);
  const searched = retrievalQuery(index, input);
  return retrieve(index, input, await embed(searched.text), searched.followUp);
}

/**
 * Whether the newest message leans on an earlier question of the conversation: a short message,
 * or one that points back ("can I turn them off?", "and for GitLab?"). A full question in a
 * thread is a question of its own, and so are: one that is only the product's name ("What is
 * Mintlify?"), which every page holds; one half of whose words no page holds; and a short one that
 * points nowhere and that the docs answer on their own.
 */
function leansOnThread(index: DocsIndex, input: RetrievalInput): boolean {
  const turns = input.conversation.filter((turn) => turn.role === 'user' && turn.text.trim() !== '');
  const last = turns.at(-1)?.text ?? '';
  if (turns.length < 2 || !isFollowUp(last) || index.namesProduct(last)) return false;
  if (pointsOnlyBack(last)) return true;
  if (
    index.unknownWordShare(last, { filter: input.filter ?? undefined, currentPath: input.currentPath }) >=
    UNKNOWN_WORD_SHARE
  )
    return false;
  // Short for want of words, not for pointing back: it may name what it asks about ("Plivo",
  // "TTSCacheMixin", "use Claude as the LLM"), and then the page about that answers it alone.
  return pointsBack(last) || !answeredAlone(index, last, input);
}

/**
 * Whether a search for `message` alone finds a page a first answer would be sure of: one that says
 * it is about the message's one word, or, for two words, a confident page that holds them as a
 * phrase ("Input muting") or is confident without one.
 */
function answeredAlone(index: DocsIndex, message: string, input: RetrievalInput): boolean {
  const [top] = index.search(message, {
    limit: 1,
    filter: input.filter ?? undefined,
    currentPath: input.currentPath,
    snippets: false,
  });
  if (top === undefined) return false;
  const words = queryTerms(message).length;
  if (words === 1) return top.about > 0;
  const sure = confidence(top, words);
  return (
    sure >= PHRASE_FREE_THRESHOLD ||
    (sure >= ANSWER_RELEVANCE_THRESHOLD && index.holdsPhrase(message, [top.urlPath], top.language))
  );
}

/**
 * A follow-up ("can I turn them off?") asks for something the pages already cited say somewhere,
 * often in a section the whole thread's words do not rank: the sections of each retrieved cited
 * page that best match the follow-up's own words join that page's passages (after them, so the
 * page keeps its place and its relevance).
 */
function addFollowUpSections(
  index: DocsIndex,
  passages: SearchHit[],
  followUp: string,
  input: RetrievalInput,
): void {
  const cited = (input.citedPaths ?? []).filter((path) => passages.some((hit) => hit.urlPath === path));
  if (cited.length === 0) return;
  const hits = index.search(followUp, {
    limit: cited.length * FOLLOW_UP_SECTIONS_PER_PAGE,
    maxPerPage: FOLLOW_UP_SECTIONS_PER_PAGE,
    filter: input.filter ?? undefined,
    withinPaths: cited,
    snippets: false,
  });
  for (const hit of hits) {
    // Sections of a page may share a link (accordions link to the heading they sit in).
    if (passages.some((passage) => sameSection(passage, hit))) continue;
    const last = passages.findLastIndex((passage) => passage.urlPath === hit.urlPath);
    const { relevance, about } = passages[last]!;
    passages.splice(last + 1, 0, { ...hit, relevance, about });
  }
}

/**
 * A noun without its plural ending ("regions" -> "region", "statuses" -> "status", "classes" ->
 * "class"), and nothing else: "which regions…" asks for what "Available Regions" lists, while
 * "what changed…" asks for no "Changes" section.
 */
function singular(word: string): string {
  if (word.length <= 3 || /(?:ss|us|is)$/.test(word)) return word;
  if (/(?:ss|x|z|ch|sh|us)es$/.test(word)) return word.slice(0, -2);
  return word.replace(/s$/, '');
}

/** A line of a Markdown list or table. */
const LIST_LINE = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)/;

/** Whether a section's text holds a list or a table: two of its lines are items or rows. */
function holdsList(body: string): boolean {
  return body.split('\n').filter((line) => LIST_LINE.test(line)).length >= 2;
}

/** Fence info strings of blocks that are text or a picture, not code a reader runs. */
const NOT_CODE_INFO = /^(?:text|txt|plain|plaintext|ascii|mermaid|diagram)\b/i;
/** Box-drawing characters: a tree or a diagram drawn in a block ("├── turn"). */
const DRAWING = /[\u2500-\u257f]/;

/**
 * Whether a section's text holds a fenced block of code, as the page syntax reads fences. A block
 * that draws a tree or a diagram, or says it is plain text, shows how something is laid out, not
 * the code that does what was asked: a section holding only such a block still needs its code.
 */
function holdsCodeBlock(body: string): boolean {
  const lines = body.split('\n');
  for (let start = 0; start < lines.length; start += 1) {
    const fence = openingFence(lines[start]!);
    if (fence === undefined) continue;
    const end = fenceEnd(lines, start, fence.marker);
    const inner = lines.slice(start + 1, end === -1 ? undefined : end);
    if (!NOT_CODE_INFO.test(fence.info) && !inner.some((line) => DRAWING.test(line))) return true;
    if (end === -1) return false;
    start = end;
  }
  return false;
}

/**
 * "How do I…", or a task put as an order ("end the pipeline after a period with no activity"), is
 * answered with the code that does it, and the sections the question's words rank first on the
 * page about it are often its prose (how it works, an overview), the code sitting in a section of
 * its own ("Configuration", "Usage") that names none of them. So when the sections retrieved of one
 * of the first pages hold no code block, its best section that does joins them: the first two, as
 * the answer may lead with the second page when one of its sentences holds more of the question.
 */
function addCodeSection(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
): void {
  if (isTask(question)) addMissingSection(index, passages, question, input, CODE_PAGES, holdsCodeBlock);
}

/**
 * A question about what holds when the reader sets nothing ("which avatar does it show if I don't
 * pick one") is answered by the sentence or table row stating the default, and on a reference
 * page that sits in a section of its own ("Configuration", "Parameters") whose words are the
 * options' names, not the reader's. So when no section retrieved of the first page states a
 * default, its best section that does joins them. On the answer-text facts tuned on (331
 * questions, three sites) this stated one more answer and changed no other; bringing the second
 * page's too changed nothing more.
 */
function addDefaultSection(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
): void {
  if (quotedForm(question) === 'default')
    addMissingSection(index, passages, question, input, 1, statesDefault);
}

/** Pages, from the first, whose code `addCodeSection` brings. */
const CODE_PAGES = 2;

/**
 * Sections of a page searched for the one a question's form asks for (code, a definition). A
 * reference page's code may sit below a dozen sections of prose its words rank first (a tracing
 * page's setup under each metric it traces); 8 missed it there, and 40 changed no other answer of
 * the sets tuned on.
 */
const SECTIONS_SEARCHED = 40;

/**
 * For each of the first `pages` retrieved pages none of whose retrieved sections `holds` what the
 * question's form asks for, the page's best section (by the question's words) that does joins its
 * sections, after them, as relevant as the page's first.
 */
function addMissingSection(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
  pages: number,
  holds: (body: string) => boolean,
): void {
  for (const page of [...new Set(passages.map((passage) => passage.urlPath))].slice(0, pages)) {
    const own = passages.filter((passage) => passage.urlPath === page);
    if (own.some((passage) => holds(passage.body))) continue;
    const hit = index
      .search(question, {
        limit: SECTIONS_SEARCHED,
        maxPerPage: SECTIONS_SEARCHED,
        filter: input.filter ?? undefined,
        withinPaths: [page],
        snippets: false,
      })
      .find((section) => holds(section.body) && !own.some((passage) => sameSection(passage, section)));
    if (hit) joinPage(passages, [hit]);
  }
}

/**
 * A subsection is a case or a detail of the section it sits in ("Configure your DNS > Apex
 * domains", "Endpoints > Rate limits"), and the text of that section above its subsections says
 * what holds for all of them: the record to add, the command, the rule the cases refine. The
 * question's words rank the subsection, whose heading and few lines repeat them, and the section
 * around it goes unread. So each subsection retrieved of the first page brings its parent
 * section's own text, unless it is already there; the other pages keep their sections, as each
 * more section of a page the answer may not quote crowds out the next page.
 */
function addParentSections(index: DocsIndex, passages: SearchHit[]): void {
  const first = passages[0];
  if (first === undefined) return;
  const own = passages.filter((passage) => passage.urlPath === first.urlPath);
  const parents: SearchHit[] = [];
  for (const passage of own) {
    if (passage.headings.length < 2) continue;
    const parent = index.section(first.urlPath, passage.headings.slice(0, -1));
    // A heading followed at once by its first subheading has no text of its own to bring.
    if (parent === undefined || parent.body.trim() === '') continue;
    if (![...own, ...parents].some((section) => sameSection(section, parent))) parents.push(parent);
  }
  joinPage(passages, parents);
}

/** Pages, from the first, that `addDefiningSections` reads. */
const DEFINING_PAGES = 3;

/**
 * A line that names a term and says what it is: a list item or a table's first cell led by the
 * term in bold or code, then a colon, a dash or the cell's border ("3. **RESET_WITH_SUMMARY**: The
 * context is cleared…", "| `timeout` | …", "- **Subpath:** host…"). Group 2 or 4 is the term.
 */
const GLOSSARY_LINE =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?(?:(\*\*|`)([^*`\n]{1,60})\1\s*(?::|\u2014|\u2013|-\s|\|)|(\*\*|`)([^*`\n]{1,60}):\3)/;

/** Whether a section's text defines a term made only of `terms` (stems of the question's words). */
function definesTerm(body: string, terms: ReadonlySet<string>): boolean {
  return body.split('\n').some((line) => {
    const match = GLOSSARY_LINE.exec(line);
    const named = queryTerms(match?.[2] ?? match?.[4] ?? '').map(stem);
    return named.length > 0 && named.every((term) => terms.has(term));
  });
}

/**
 * "What does RESET_WITH_SUMMARY do?" is answered where the docs define the term, and they define
 * a page's terms in a list or a table, one line each, the term first: the section holding that
 * list seldom ranks first for the term, which the sections about when and how to use it repeat in
 * fewer words. So for a question asking what something is or does, each of the first pages whose
 * retrieved sections define none of the question's terms brings its section that does, if it has
 * one.
 */
function addDefiningSections(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
): void {
  if (answerForm(question) !== 'definition') return;
  const terms = new Set(queryTerms(question).map(stem));
  addMissingSection(index, passages, question, input, DEFINING_PAGES, (body) => definesTerm(body, terms));
}

/** Words of the sections that hold an install command, to find them on the first page. */
const COMMAND_WORDS = 'install npm pip brew yarn pnpm command';

/**
 * "How do I install it?" is answered by a command, and the section that holds it seldom names what
 * it does ("Start the server" and its `npm ci && npm start`): the question's words rank the
 * page's requirements or overview instead, or another page that merely shows a `curl`. So the
 * first retrieved page that holds an install command (in its sections retrieved, or in another of
 * its sections, which then joins them) answers first; when none does, the ranking stays.
 */
function addCommandSection(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
): void {
  if (passages.length === 0 || answerForm(question) !== 'command') return;
  for (const page of [...new Set(passages.map((passage) => passage.urlPath))]) {
    const own = passages.filter((passage) => passage.urlPath === page);
    if (!own.some((passage) => holdsInstallCommand(passage.body))) {
      const hit = index
        .search(`${question} ${COMMAND_WORDS}`, {
          limit: 4,
          maxPerPage: 4,
          filter: input.filter ?? undefined,
          withinPaths: [page],
          snippets: false,
        })
        .find(
          (section) =>
            holdsInstallCommand(section.body) && !own.some((passage) => sameSection(passage, section)),
        );
      if (!hit) continue;
      own.push({ ...hit, relevance: own[0]!.relevance, about: own[0]!.about });
    }
    // The answering page first, its sections in their order; the other pages after, as ranked.
    const rest = passages.filter((passage) => passage.urlPath !== page);
    passages.splice(0, passages.length, ...own, ...rest);
    return;
  }
}

/** Words of the sections `addOpeningSection` looks for, so that the search finds them. */
const SECTION_WORDS = 'overview introduction requirements prerequisites';
/** Sections of the first page searched for its opening: a reference page has a few dozen. */
const OPENING_SEARCH = 40;

/**
 * The first page's opening says what the page's subject is and what holds for it as a whole: the
 * class to use, whether it is on by default, that a transport must be given, how soon data shows
 * up. The question's words rank the sections that repeat them instead (its prerequisites, its
 * notes, one option), which name the subject without saying that. So the opening of the first page
 * joins its sections, unless one of them is the opening; the answerer weighs it as a section headed
 * by the page's title. A question asking what is needed first brings the first page's requirements
 * section instead, and a "which" question the section headed by what it asks for. A question asking
 * for a command keeps the section that holds it. Joining the opening whatever the question asks
 * stated 288 of the 331 answer-text facts tuned on, against 286 when it joined only for a page whose
 * title holds half of the question or a question of no particular form (two more on pipecat, as many
 * elsewhere), with the same pages cited.
 */
function addOpeningSection(
  index: DocsIndex,
  passages: SearchHit[],
  question: string,
  input: RetrievalInput,
): void {
  const first = passages[0];
  const form = answerForm(question);
  if (first === undefined || form === 'command') return;
  const asked = askedFor(question)?.toLowerCase();
  // The sections that answer the question's form, in order of preference: what must be in place
  // first is listed in a section of its own ("Requirements"), which the question's words seldom
  // name ("what do I need installed before I start?"); a section headed by what a "which" question
  // asks for, in the question's own form, lists it ("Available regions" for "which regions…", not
  // "Deploy to a region"); else the page's opening. Of the sections headed by what a "which"
  // question asks for, one that lists it ("Available Regions" and its list of regions) comes
  // before one that only names it ("Deploying to Multiple Regions"): a page may head several
  // sections with the word.
  const wanted: ((section: SearchHit) => boolean)[] = [];
  if (form === 'requirements') wanted.push((section) => listsRequirements(section.heading));
  if (asked !== undefined) {
    const heads = (section: SearchHit) =>
      queryTerms(section.heading).some((word) => singular(word) === singular(asked));
    wanted.push((section) => heads(section) && holdsList(section.body));
    wanted.push(heads);
  }
  wanted.push(isOpening);
  const own = passages.filter((passage) => passage.urlPath === first.urlPath);
  let sections: SearchHit[] | undefined;
  const search = () =>
    (sections ??= index.search(`${first.pageTitle} ${question} ${SECTION_WORDS}`, {
      limit: OPENING_SEARCH,
      maxPerPage: OPENING_SEARCH,
      filter: input.filter ?? undefined,
      withinPaths: [first.urlPath],
      snippets: false,
    }));
  // The first test a section of the page passes decides: when a retrieved section passes it, the
  // passages already answer the question's form.
  let found: SearchHit | undefined;
  for (const test of wanted) {
    if (own.some(test)) return;
    found = search().find(test) ?? (test === isOpening ? openingOf(index, first.urlPath) : undefined);
    if (found) break;
  }
  if (found) joinPage(passages, [found]);
}

/**
 * Puts sections of a retrieved page after its passages, as relevant and as much about the question
 * as the page's first: the page keeps its place, and is cited and judged as a whole.
 */
function joinPage(passages: SearchHit[], sections: readonly SearchHit[]): void {
  const page = sections[0]?.urlPath;
  const first = passages.find((passage) => passage.urlPath === page);
  if (first === undefined) return;
  const last = passages.findLastIndex((passage) => passage.urlPath === page);
  const { relevance, about } = first;
  passages.splice(last + 1, 0, ...sections.map((section) => ({ ...section, relevance, about })));
}

/**
 * A page's opening section, read in page order: the search for it ranks a long reference page's
 * short sections first ("bot-llm-started" repeats "RTVI" in fewer words than the opening defining
 * it), and the opening may not be among those it returns.
 */
function openingOf(index: DocsIndex, urlPath: string): SearchHit | undefined {
  return index.search('', { currentPath: urlPath, limit: 1 }).find(isOpening);
}

function sameSection(left: SearchHit, right: SearchHit): boolean {
  return left.url === right.url && left.heading === right.heading && left.body === right.body;
}

function lastUserText(conversation: ConversationTurn[]): string {
  return conversation.findLast((turn) => turn.role === 'user')?.text ?? '';
}

/**
 * The text a conversation is searched with (its last question, and what a follow-up leans on),
 * and whether it leans on the thread: pass that on to `retrieve`.
 */
function retrievalQuery(index: DocsIndex, input: RetrievalInput): { text: string; followUp: boolean } {
  const followUp = leansOnThread(index, input);
  return { text: searchText(input, followUp), followUp };
}

function searchText(input: RetrievalInput, followUp: boolean): string {
  return buildRetrievalQuery({
    messages: input.conversation.map((turn) => ({ role: turn.role, text: turn.text })),
    context: input.context,
    followUp,
  });
}
