import type { ReaderSite, SearchFilter, SearchHit } from '../docs/index.js';
import { DocwrightError, notFound } from '../core/errors.js';
import { newThreadId, randomString } from '../core/ids.js';
import type { ContextItem, ConversationTurn } from '../protocol/assistant.js';
import type { AnswerRecord, ProjectRow, Store, ThreadMessage } from '../store/index.js';
import { UnstoredThreads } from './unstored-threads.js';
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
  /** The client's id of the question (its last message), kept so that feedback can tell it from an answer. */
  questionId?: string;
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
  private readonly unstored = new UnstoredThreads();

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
    const threadId = request.threadId ? await this.existingThread(request.threadId, domain) : newThreadId();
    let conversation = request.conversation;
    let citedPaths: string[] = [];
    if (request.threadId) {
      const stored = await this.history(threadId);
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
    const answerer = this.options.answererFor(project);
    const answer = answerer.answer({ conversation, ...retrieval, signal });
    // The thread and the question are stored before the answer streams: the id the client gets in
    // the first chunk must continue the conversation even when this answer fails or is stopped.
    const thread = { id: threadId, projectId: project.id, domain, fp: request.fp, isNew: !request.threadId };
    await this.keep(thread, [
      { role: 'user', content: question, ...(request.questionId ? { messageId: request.questionId } : {}) },
    ]);
    const messageId = `msg_${randomString(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
    return {
      threadId,
      messageId,
      answer,
      complete: (text) =>
        this.keep({ ...thread, isNew: false }, [
          {
            role: 'assistant',
            content: text,
            sources: answer.sources,
            messageId,
            record: answerRecord(
              retrieval.passages,
              answer.sources.length,
              answerer.name === 'extractive' ? '' : text,
              index.unknownWords(question),
            ),
          },
        ]),
    };
  }

  /**
   * The sections an answer to `query` would be built from and cite, best first: the assistant's
   * own retrieval for a one-question conversation, for agents that read the docs themselves.
   */
  async search(project: ProjectRow, query: string, pages: number, signal: AbortSignal): Promise<SearchHit[]> {
    const index = await this.options.indexes.get(project);
    const input = { conversation: [{ role: 'user' as const, text: query }], retrievalPageSize: pages };
    return (await retrieveHybrid(index, input, (text) => this.embedQuery(text, signal))).passages;
  }

  /** The published pages of the project's docs, from the revision its index was built from. */
  pages(project: ProjectRow): Promise<ReaderSite> {
    return this.options.indexes.pages(project);
  }

  /**
   * Stores messages of a thread. When storage fails (the disk full, the database gone) the reader
   * still gets the answer and is told nothing of it: the thread is kept in this process instead,
   * and stored with its earlier messages by the first write that works.
   */
  private async keep(
    thread: { id: string; projectId: string; domain: string; fp: string; isNew: boolean },
    messages: ThreadMessage[],
  ): Promise<void> {
    const { store } = this.options;
    const unstored = this.unstored.get(thread.id);
    const all = [...(unstored?.messages ?? []), ...messages];
    try {
      if (thread.isNew || unstored) {
        await store.assistantThreads.create(thread, new Date(), all);
        this.unstored.stored(thread.id);
      } else await store.assistantThreads.append(thread.id, messages);
    } catch (error) {
      if (!isStorageFault(error)) throw error;
      this.options.logger?.warn(
        { thread: thread.id, reason: error instanceof Error ? error.message : String(error) },
        'the assistant thread could not be stored; it is kept in memory until storage works again',
      );
      this.unstored.add(thread.id, thread, unstored ? messages : all);
    }
  }

  /** The newest messages of a thread, stored or kept while storage failed. */
  private async history(
    threadId: string,
  ): Promise<{ role: 'user' | 'assistant'; content: string; sources: string | null }[]> {
    const kept = this.unstored.get(threadId);
    if (kept) {
      return kept.messages.slice(-HISTORY_TURNS).map((message) => ({
        role: message.role,
        content: message.content,
        sources: message.sources ? JSON.stringify(message.sources) : null,
      }));
    }
    return this.options.store.assistantThreads.messages(threadId, HISTORY_TURNS);
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
    const kept = this.unstored.get(threadId);
    if (kept) {
      if (kept.domain !== domain) throw notFound(`Thread ${threadId} not found`);
      return threadId;
    }
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

/** Whether an error is the storage's (full, unreachable), after which the answer still goes out. */
function isStorageFault(error: unknown): boolean {
  return DocwrightError.isInstance(error) && (error.code === 'storage_full' || error.code === 'unavailable');
}

/** Pages kept as the closest to a question: enough to group questions by, and to show. */
const CLOSEST_PAGES = 3;

/**
 * A model's own words for "the passages do not answer this" (it is told to say so plainly). An
 * extractive answer that declines cites nothing, and its text (quotes of the docs) is not read.
 */
const MODEL_DECLINE =
  /\b(?:(?:does|do)(?: not|n't) (?:cover|mention|say|describe|document)|(?:could|can)(?: not|n't) find)\b/i;

/**
 * What the assistant records of a reply: whether it declined, its support, the closest pages and
 * the question's words the docs never use.
 */
function answerRecord(
  passages: SearchHit[],
  cited: number,
  text: string,
  unknownWords: string[],
): AnswerRecord {
  const closest: AnswerRecord['closest'] = [];
  for (const passage of passages) {
    if (closest.length >= CLOSEST_PAGES) break;
    if (!closest.some((page) => page.url === passage.urlPath))
      closest.push({ url: passage.urlPath, title: passage.pageTitle });
  }
  const support = Math.max(0, ...passages.map((passage) => passage.relevance));
  const about = Math.max(0, ...passages.map((passage) => passage.about));
  const declined = cited === 0 || MODEL_DECLINE.test(text.slice(0, 400));
  return {
    outcome: declined ? 'declined' : 'answered',
    support: Math.min(1, support),
    about: Math.min(1, about),
    closest,
    unknownWords,
  };
}
