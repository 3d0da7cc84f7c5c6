import type { Kysely, Selectable } from 'kysely';
import type { AssistantMessageTable, AssistantThreadTable, Database } from './schema.js';
import { redactSecrets } from '../redact.js';

export type ThreadRow = Selectable<AssistantThreadTable>;
export type ThreadMessageRow = Selectable<AssistantMessageTable>;

export interface ThreadMessage {
  role: 'user' | 'assistant';
  content: string;
  sources?: unknown[];
}

/** Assistant conversations: a thread per conversation, its messages in order. */
export class ThreadStore {
  constructor(private readonly db: Kysely<Database>) {}

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
    if (messages.length === 0) {
      await this.db.insertInto('assistant_threads').values(row).execute();
      return row;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('assistant_threads').values(row).execute();
      await trx
        .insertInto('assistant_messages')
        .values(messageRows(thread.id, messages, now))
        .execute();
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
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('assistant_threads')
        .set({ updated_at: now.toISOString() })
        .where('id', '=', threadId)
        .execute();
      await trx
        .insertInto('assistant_messages')
        .values(messageRows(threadId, messages, now))
        .execute();
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
  }));
}
