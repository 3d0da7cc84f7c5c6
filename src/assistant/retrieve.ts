import { buildRetrievalQuery, type DocsIndex, type SearchFilter, type SearchHit } from '../docs/index.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';

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
  /** One section per page, best first. */
  passages: SearchHit[];
}

/**
 * The passages an answer is built from: the conversation becomes one query (a follow-up brings
 * in the question before it), and the pages the thread's last answer cited rank higher when the
 * newest message leans on it.
 */
export function retrieve(index: DocsIndex, input: RetrievalInput): Retrieval {
  const query = buildRetrievalQuery({
    messages: input.conversation.map((turn) => ({ role: turn.role, text: turn.text })),
    context: input.context,
  });
  const passages = index.search(query, {
    limit: input.retrievalPageSize,
    filter: input.filter ?? undefined,
    currentPath: input.currentPath,
  });
  return { query, passages };
}
