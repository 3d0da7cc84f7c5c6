import type { Kysely, Selectable } from 'kysely';
import type { Database, GapsIssueTable } from './schema.js';

export type GapsIssueRow = Selectable<GapsIssueTable>;

/** Per project: the number of its "Docs gaps" issue and when the weekly refresh last ran. */
export class GapsIssueStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(projectId: string): Promise<GapsIssueRow | undefined> {
    return this.db
      .selectFrom('gaps_issues')
      .selectAll()
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  /** Records the issue the App wrote (null: forget one that is gone). */
  async setIssue(projectId: string, issueNumber: number | null): Promise<void> {
    await this.db
      .insertInto('gaps_issues')
      .values({ project_id: projectId, issue_number: issueNumber, refreshed_at: null })
      .onConflict((conflict) => conflict.column('project_id').doUpdateSet({ issue_number: issueNumber }))
      .execute();
  }

  /**
   * Claims the weekly refresh of a project: true when it last ran before `before` (or never), and
   * the run time is then `now`. A conditional write, so of two replicas (or a restart) only one
   * runs it in a week.
   */
  async claimRefresh(projectId: string, before: Date, now: Date): Promise<boolean> {
    const at = now.toISOString();
    await this.db
      .insertInto('gaps_issues')
      .values({ project_id: projectId, issue_number: null, refreshed_at: null })
      .onConflict((conflict) => conflict.column('project_id').doNothing())
      .execute();
    const result = await this.db
      .updateTable('gaps_issues')
      .set({ refreshed_at: at })
      .where('project_id', '=', projectId)
      .where((where) =>
        where.or([where('refreshed_at', 'is', null), where('refreshed_at', '<', before.toISOString())]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
