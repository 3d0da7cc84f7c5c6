import { buildRetrievalQuery, type SearchFilter } from '../docs/index.js';
import { notFound } from '../errors.js';
import { newThreadId, randomString } from '../ids.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';
import type { ProjectRow, Store } from '../store/index.js';
import type { Answer, Answerer } from './answer/types.js';
import type { DocsIndexes } from './docs-indexes.js';

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
 * The documentation assistant (issue 3): continues or starts a thread, retrieves the sections that
 * answer the conversation, and hands them to the answerer. Streams are written by the caller.
 */
export class Assistant {
  constructor(
    private readonly options: {
      store: Store;
      indexes: DocsIndexes;
      answererFor(project: ProjectRow): Answerer;
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
    if (request.threadId && conversation.length === 1) {
      const stored = await store.threads.messages(threadId, HISTORY_TURNS);
      conversation = [
        ...stored.map((message) => ({ role: message.role, text: message.content })),
        ...conversation,
      ];
    }
    const question = conversation.at(-1)?.text ?? '';
    const query = buildRetrievalQuery({
      messages: conversation.map((turn) => ({ role: turn.role, text: turn.text })),
      context: request.context,
    });
    const index = await this.options.indexes.get(project);
    const passages = index.search(query, {
      limit: request.retrievalPageSize,
      filter: request.filter ?? undefined,
      currentPath: request.currentPath,
    });
    const answer = this.options.answererFor(project).answer({ conversation, query, passages, signal });
    // The thread and the question are stored before the answer streams: the id the client gets in
    // the first chunk must continue the conversation even when this answer fails or is stopped.
    if (!request.threadId)
      await store.threads.create({ id: threadId, projectId: project.id, domain, fp: request.fp });
    await store.threads.append(threadId, [{ role: 'user', content: question }]);
    return {
      threadId,
      messageId: `msg_${randomString(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
      answer,
      complete: async (text) => {
        await store.threads.append(threadId, [{ role: 'assistant', content: text, sources: answer.sources }]);
      },
    };
  }

  /** A thread is found only under the domain it was started on: another domain's id is a 404 too. */
  private async existingThread(threadId: string, domain: string): Promise<string> {
    const thread = await this.options.store.threads.get(threadId);
    if (!thread || thread.domain !== domain) throw notFound(`Thread ${threadId} not found`);
    return thread.id;
  }
}
