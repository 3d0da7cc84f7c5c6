import type { Kysely, Selectable } from 'kysely';
import type { OpenDatabase } from './database.js';
import type { AssistantMessageTable, AssistantThreadTable, Database } from './schema.js';
import { rowInsert, type SqliteWriteBatch } from './write-batch.js';
import { redactSecrets } from '../core/redact.js';

export type ThreadRow = Selectable<AssistantThreadTable>;
export type ThreadMessageRow = Selectable<AssistantMessageTable>;

export interface ThreadMessage {
  role: 'user' | 'assistant';
  content: string;
  sources?: unknown[];
  /** The id clients know the message by (a reply's stream `messageId`, a question's client id). */
  messageId?: string;
  /** What a reply rested on, for feedback and the gaps report. */
  record?: AnswerRecord;
}

/** What the assistant records of a reply: whether it declined, its support, the closest pages. */
export interface AnswerRecord {
  outcome: 'answered' | 'declined';
  /** Share (0-1) of the question the best retrieved page held. */
  support: number;
  /** The same share in what the pages say they are about: their titles, headings and summaries. */
  about: number;
  closest: { url: string; title: string }[];
  /** The question's words no page holds. */
  unknownWords: string[];
}

// On SQLite the writes of an answer go through the group commit, in statements of their own: every
// answer writes twice (its question before streaming, its reply after), and concurrent answers'
// writes share one commit.
const insertThread = rowInsert<ThreadRow>('assistant_threads', [
  'id',
  'project_id',
  'domain',
  'fp',
  'created_at',
  'updated_at',
]);
const insertMessage = rowInsert<MessageRow>('assistant_messages', [
  'thread_id',
  'role',
  'content',
  'sources',
  'created_at',
  'message_id',
  'outcome',
  'support',
  'closest',
  'about',
  'unknown_words',
]);
const TOUCH_THREAD = 'update assistant_threads set updated_at = ? where id = ?';

type MessageRow = ReturnType<typeof messageRows>[number];

/** Assistant conversations: a thread per conversation, its messages in order. */
export class AssistantThreadStore {
  private readonly db: Kysely<Database>;
  private readonly writes: SqliteWriteBatch | undefined;

  constructor(database: OpenDatabase) {
    this.db = database.db;
    this.writes = database.dialect === 'sqlite' ? database.writes : undefined;
  }

  /** Creates a thread, with its first messages in the same transaction (one commit, not two). */
  async create(
    thread: { id: string; projectId: string; domain: string; fp: string },
    now = new Date(),
    messages: ThreadMessage[] = [],
  ): Promise<ThreadRow> {
    const row: ThreadRow = {
      id: thread.id,
      project_id: thread.projectId,
      domain: thread.domain,
      fp: thread.fp,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const rows = messageRows(thread.id, messages, now);
    if (this.writes) {
      await this.writes.run((prepare) => {
        insertThread(prepare, row);
        for (const message of rows) insertMessage(prepare, message);
      });
      return row;
    }
    if (messages.length === 0) {
      await this.db.insertInto('assistant_threads').values(row).execute();
      return row;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('assistant_threads').values(row).execute();
      await trx.insertInto('assistant_messages').values(rows).execute();
    });
    return row;
  }

  async get(id: string): Promise<ThreadRow | undefined> {
    return this.db.selectFrom('assistant_threads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The thread's messages, oldest first; with `limit`, only the newest that many. */
  async messages(threadId: string, limit = 200): Promise<ThreadMessageRow[]> {
    const rows = await this.db
      .selectFrom('assistant_messages')
      .selectAll()
      .where('thread_id', '=', threadId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  async append(threadId: string, messages: ThreadMessage[], now = new Date()): Promise<void> {
    if (messages.length === 0) return;
    const rows = messageRows(threadId, messages, now);
    if (this.writes) {
      await this.writes.run((prepare) => {
        prepare(TOUCH_THREAD).run(now.toISOString(), threadId);
        for (const message of rows) insertMessage(prepare, message);
      });
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('assistant_threads')
        .set({ updated_at: now.toISOString() })
        .where('id', '=', threadId)
        .execute();
      await trx.insertInto('assistant_messages').values(rows).execute();
    });
  }
}

function messageRows(threadId: string, messages: ThreadMessage[], now: Date) {
  // A reader who pastes a key into a question must not find it stored, nor in the reply to it.
  return messages.map((message) => ({
    thread_id: threadId,
    role: message.role,
    content: redactSecrets(message.content),
    sources: message.sources ? JSON.stringify(message.sources) : null,
    created_at: now.toISOString(),
    message_id: message.messageId ?? null,
    outcome: message.record?.outcome ?? null,
    support: message.record ? Math.round(message.record.support * 1000) : null,
    closest: message.record ? JSON.stringify(message.record.closest) : null,
    about: message.record ? Math.round(message.record.about * 1000) : null,
    unknown_words: message.record ? JSON.stringify(message.record.unknownWords) : null,
  }));
}

/** A reader's question and the reply it got, as the gaps report reads them. */
export interface Exchange {
  threadId: string;
  fp: string;
  question: string;
  /** The reply's public id (what feedback names). */
  messageId: string;
  outcome: 'answered' | 'declined';
  /** 0-1. */
  support: number;
  about: number;
  closest: { url: string; title: string }[];
  unknownWords: string[];
  createdAt: string;
}

/** Most exchanges one report reads: the newest are kept. */
const MAX_EXCHANGES = 20_000;

/**
 * The exchanges of a project's threads since `since` (ISO), oldest first: each recorded reply with
 * the question just before it in its thread. Replies stored before replies were recorded are left out.
 */
export async function exchangesSince(
  db: Kysely<Database>,
  projectId: string,
  since: string,
): Promise<Exchange[]> {
  const rows = await db
    .selectFrom('assistant_messages as message')
    .innerJoin('assistant_threads as thread', 'thread.id', 'message.thread_id')
    .select([
      'message.id',
      'message.thread_id',
      'message.role',
      'message.content',
      'message.message_id',
      'message.outcome',
      'message.support',
      'message.closest',
      'message.about',
      'message.unknown_words',
      'message.created_at',
      'thread.fp',
    ])
    .where('thread.project_id', '=', projectId)
    .where('message.created_at', '>=', since)
    .orderBy('message.id', 'desc')
    .limit(MAX_EXCHANGES * 2)
    .execute();
  rows.reverse();
  const lastQuestion = new Map<string, string>();
  const exchanges: Exchange[] = [];
  for (const row of rows) {
    if (row.role === 'user') {
      lastQuestion.set(row.thread_id, row.content);
      continue;
    }
    const question = lastQuestion.get(row.thread_id);
    lastQuestion.delete(row.thread_id);
    if (question === undefined || !row.message_id || !row.outcome) continue;
    exchanges.push({
      threadId: row.thread_id,
      fp: row.fp,
      question,
      messageId: row.message_id,
      outcome: row.outcome,
      support: (row.support ?? 0) / 1000,
      about: (row.about ?? 0) / 1000,
      closest: parseClosest(row.closest),
      unknownWords: parseWords(row.unknown_words),
      createdAt: row.created_at,
    });
  }
  return exchanges;
}

function parseClosest(text: string | null): { url: string; title: string }[] {
  if (!text) return [];
  try {
    const pages = JSON.parse(text) as unknown;
    return Array.isArray(pages)
      ? pages.filter(
          (page): page is { url: string; title: string } =>
            typeof page === 'object' &&
            page !== null &&
            typeof (page as { url?: unknown }).url === 'string' &&
            typeof (page as { title?: unknown }).title === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function parseWords(text: string | null): string[] {
  if (!text) return [];
  try {
    const words = JSON.parse(text) as unknown;
    return Array.isArray(words) ? words.filter((word): word is string => typeof word === 'string') : [];
  } catch {
    return [];
  }
}
