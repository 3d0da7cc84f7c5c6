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
import { answerForm, holdsInstallCommand } from './answer/answer-form.js';
import { ANSWER_RELEVANCE_THRESHOLD, PHRASE_FREE_THRESHOLD, confidence } from './answer/extractive.js';

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
  // Two sections of a page at most, and the page counted once: the answer cites pages.
  const sections = index.search(query, {
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
  else addCommandSection(index, passages, lastUserText(input.conversation), input);
  let holds: boolean | undefined;
  const holdsPhrase = () => (holds ??= index.holdsPhrase(query, pages, passages[0]?.language));
  return { query, passages, holdsPhrase, followUp };
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
