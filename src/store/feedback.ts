import type { Kysely, Selectable } from 'kysely';
import { redactSecrets } from '../core/redact.js';
import { exchangesSince, type Exchange } from './assistant-threads.js';
import type { Database, FeedbackTable } from './schema.js';

export type FeedbackRow = Selectable<FeedbackTable>;

/** A message of a thread as feedback looks it up: whether it is an answer. */
export interface RatedMessage {
  role: 'user' | 'assistant';
  messageId: string;
}

/**
 * Readers' ratings of the assistant's answers (one per answer; a later one replaces it), and what
 * the gaps report reads: the exchanges of a period with their ratings.
 */
export class FeedbackStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The message of `threadId` clients call `messageId`, or undefined. */
  async message(threadId: string, messageId: string): Promise<RatedMessage | undefined> {
    const row = await this.db
      .selectFrom('assistant_messages')
      .select(['role', 'message_id'])
      .where('thread_id', '=', threadId)
      .where('message_id', '=', messageId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.message_id ? { role: row.role, messageId: row.message_id } : undefined;
  }

  /** Records a rating; a second rating of the same answer replaces the first (its comment too). */
  async rate(
    feedback: {
      projectId: string;
      threadId: string;
      messageId: string;
      rating: 'up' | 'down';
      comment: string | null;
      fp: string;
    },
    now = new Date(),
  ): Promise<FeedbackRow> {
    const at = now.toISOString();
    // A reader who pastes a key into a comment must not find it stored.
    const comment = feedback.comment === null ? null : redactSecrets(feedback.comment);
    await this.db
      .insertInto('feedback')
      .values({
        project_id: feedback.projectId,
        thread_id: feedback.threadId,
        message_id: feedback.messageId,
        rating: feedback.rating,
        comment,
        fp: feedback.fp,
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['thread_id', 'message_id'])
          .doUpdateSet({ rating: feedback.rating, comment, updated_at: at }),
      )
      .execute();
    return this.db
      .selectFrom('feedback')
      .selectAll()
      .where('thread_id', '=', feedback.threadId)
      .where('message_id', '=', feedback.messageId)
      .executeTakeFirstOrThrow();
  }

  /**
   * A project's exchanges since `since` (ISO), each with its rating when it has one: what the gaps
   * report groups.
   */
  async exchanges(
    projectId: string,
    since: string,
  ): Promise<(Exchange & { rating: 'up' | 'down' | null; comment: string | null })[]> {
    const exchanges = await exchangesSince(this.db, projectId, since);
    const ratings = await this.db
      .selectFrom('feedback')
      .select(['thread_id', 'message_id', 'rating', 'comment'])
      .where('project_id', '=', projectId)
      .where('updated_at', '>=', since)
      .execute();
    const byMessage = new Map(ratings.map((row) => [`${row.thread_id} ${row.message_id}`, row]));
    return exchanges.map((exchange) => {
      const rated = byMessage.get(`${exchange.threadId} ${exchange.messageId}`);
      return { ...exchange, rating: rated?.rating ?? null, comment: rated?.comment ?? null };
    });
  }

  /**
   * Deletes what is older than `before`: feedback, messages, and threads nothing newer was said
   * in (with their feedback). Returns the number of threads deleted.
   */
  async prune(before: Date): Promise<{ threads: number; messages: number; feedback: number }> {
    const cutoff = before.toISOString();
    return this.db.transaction().execute(async (trx) => {
      const stale = trx.selectFrom('assistant_threads').select('id').where('updated_at', '<', cutoff);
      const feedback = await trx
        .deleteFrom('feedback')
        .where((where) => where.or([where('updated_at', '<', cutoff), where('thread_id', 'in', stale)]))
        .executeTakeFirst();
      const messages = await trx
        .deleteFrom('assistant_messages')
        .where((where) => where.or([where('created_at', '<', cutoff), where('thread_id', 'in', stale)]))
        .executeTakeFirst();
      const threads = await trx
        .deleteFrom('assistant_threads')
        .where('updated_at', '<', cutoff)
        .executeTakeFirst();
      return {
        threads: Number(threads.numDeletedRows),
        messages: Number(messages.numDeletedRows),
        feedback: Number(feedback.numDeletedRows),
      };
    });
  }
}
