import {
  buildRetrievalQuery,
  isFollowUp,
  type DocsIndex,
  type SearchFilter,
  type SearchHit,
} from '../docs/index.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';

/** Sections of one page given to the answerer: the best, and the next that may hold the rest. */
const SECTIONS_PER_PAGE = 2;

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
): Retrieval {
  const query = retrievalQuery(input);
  // Two sections of a page at most, and the page counted once: the answer cites pages.
  const sections = index.search(query, {
    limit: input.retrievalPageSize * SECTIONS_PER_PAGE,
    maxPerPage: SECTIONS_PER_PAGE,
    filter: input.filter ?? undefined,
    currentPath: input.currentPath,
    citedPaths: isFollowUp(lastUserText(input.conversation)) ? input.citedPaths : undefined,
    queryVector,
  });
  const pages = [...new Set(sections.map((hit) => hit.urlPath))].slice(0, input.retrievalPageSize);
  return { query, passages: sections.filter((hit) => pages.includes(hit.urlPath)) };
}

function lastUserText(conversation: ConversationTurn[]): string {
  return conversation.findLast((turn) => turn.role === 'user')?.text ?? '';
}

/** The text a conversation is searched with (its last question, and what a follow-up leans on). */
export function retrievalQuery(input: Pick<RetrievalInput, 'conversation' | 'context'>): string {
  return buildRetrievalQuery({
    messages: input.conversation.map((turn) => ({ role: turn.role, text: turn.text })),
    context: input.context,
  });
}
