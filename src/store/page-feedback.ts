import type { Kysely, Selectable } from 'kysely';
import { redactSecrets } from '../core/redact.js';
import type { Database, PageFeedbackTable } from './schema.js';

export type PageFeedbackRow = Selectable<PageFeedbackTable>;

/** Reports that a docs page is wrong or lacking, as the MCP server's `submit_feedback` receives them. */
export class PageFeedbackStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(
    feedback: { projectId: string; pagePath: string; problem: string; keyId: string | null },
    now = new Date(),
  ): Promise<PageFeedbackRow> {
    return this.db
      .insertInto('page_feedback')
      .values({
        project_id: feedback.projectId,
        page_path: feedback.pagePath,
        // Whoever pastes a key into a report must not find it stored.
        problem: redactSecrets(feedback.problem),
        key_id: feedback.keyId,
        created_at: now.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A project's reports made after `after` (an ISO time), newest first. */
  since(projectId: string, after: string): Promise<PageFeedbackRow[]> {
    return this.db
      .selectFrom('page_feedback')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('created_at', '>', after)
      .orderBy('id', 'desc')
      .execute();
  }

  /** A project's reports, newest first. */
  list(projectId: string, limit = 100): Promise<PageFeedbackRow[]> {
    return this.db
      .selectFrom('page_feedback')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
