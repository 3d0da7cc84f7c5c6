import type { SearchFilter } from '../docs/index.js';
import { notFound } from '../core/errors.js';
import { newThreadId, randomString } from '../core/ids.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';
import type { ProjectRow, Store } from '../store/index.js';
import type { Answer, Answerer } from './answer/types.js';
import type { DocsIndexes } from './docs-indexes.js';
import type { SectionEmbedder } from './embeddings.js';
import { retrieveHybrid } from './retrieve.js';
import type { Logger } from '../core/logger.js';

export interface AssistantRequest {
  fp: string;
  conversation: ConversationTurn[];
  threadId?: string | null;
  retrievalPageSize: number;
  filter?: SearchFilter | null;
  context?: ContextItem[];
  currentPath?: string;
}

export interface PreparedAnswer {
  threadId: string;
  messageId: string;
  answer: Answer;
  /** Stores the question and the streamed reply in the thread. */
  complete(text: string): Promise<void>;
}

/** Earlier turns of a stored thread used when the client sends only its newest message. */
const HISTORY_TURNS = 20;

/**
 * The documentation assistant: continues or starts a thread, retrieves the sections that
 * answer the conversation, and hands them to the answerer. Streams are written by the caller.
 */
export class Assistant {
  constructor(
    private readonly options: {
      store: Store;
      indexes: DocsIndexes;
      answererFor(project: ProjectRow): Answerer;
      /** With an embedding model configured: embeds questions for hybrid retrieval. */
      embedder?: SectionEmbedder;
      logger?: Logger;
    },
  ) {}

  async respond(
    project: ProjectRow,
    domain: string,
    request: AssistantRequest,
    signal: AbortSignal,
  ): Promise<PreparedAnswer> {
    const { store } = this.options;
    const threadId = request.threadId ? await this.existingThread(request.threadId, domain) : newThreadId();
    let conversation = request.conversation;
    let citedPaths: string[] = [];
    if (request.threadId) {
      const stored = await store.assistantThreads.messages(threadId, HISTORY_TURNS);
      if (conversation.length === 1)
        conversation = [
          ...stored.map((message) => ({ role: message.role, text: message.content })),
          ...conversation,
        ];
      citedPaths = lastCitedPaths(stored);
    }
    const question = conversation.at(-1)?.text ?? '';
    const index = await this.options.indexes.get(project);
    const input = {
      conversation,
      retrievalPageSize: request.retrievalPageSize,
      filter: request.filter,
      context: request.context,
      currentPath: request.currentPath,
      citedPaths,
    };
    const retrieval = await retrieveHybrid(index, input, (text) => this.embedQuery(text, signal));
    const answer = this.options.answererFor(project).answer({ conversation, ...retrieval, signal });
    // The thread and the question are stored before the answer streams: the id the client gets in
    // the first chunk must continue the conversation even when this answer fails or is stopped.
    const asked = [{ role: 'user' as const, content: question }];
    if (request.threadId) await store.assistantThreads.append(threadId, asked);
    else
      await store.assistantThreads.create(
        { id: threadId, projectId: project.id, domain, fp: request.fp },
        new Date(),
        asked,
      );
    return {
      threadId,
      messageId: `msg_${randomString(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
      answer,
      complete: async (text) => {
        await store.assistantThreads.append(threadId, [
          { role: 'assistant', content: text, sources: answer.sources },
        ]);
      },
    };
  }

  /** The question's embedding, or undefined (full-text only) when the model fails. */
  private async embedQuery(query: string, signal: AbortSignal): Promise<number[] | undefined> {
    try {
      return await this.options.embedder?.embedQuery(query, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.logger?.warn({ error: message }, 'embedding the question failed; full-text search only');
      return undefined;
    }
  }

  /** A thread is found only under the domain it was started on: another domain's id is a 404 too. */
  private async existingThread(threadId: string, domain: string): Promise<string> {
    const thread = await this.options.store.assistantThreads.get(threadId);
    if (!thread || thread.domain !== domain) throw notFound(`Thread ${threadId} not found`);
    return thread.id;
  }
}

/** URL paths the thread's latest answer cited (its stored sources), for a follow-up question. */
function lastCitedPaths(messages: { role: string; sources: string | null }[]): string[] {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last?.sources) return [];
  try {
    const sources = JSON.parse(last.sources) as { url?: unknown }[];
    return sources.flatMap((source) =>
      typeof source.url === 'string' ? [source.url.replace(/#.*$/, '')] : [],
    );
  } catch {
    return []; // sources written by an older version in another shape only lose the boost
  }
}
