import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The "Docs gaps" issue of each project on GitHub: its number once the App opened it (so it is
 * edited, never opened twice) and when the weekly refresh last ran (so a restart does not run it
 * again before the week is out).
 */
export const gapsIssuesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('gaps_issues')
      .addColumn('project_id', 'text', (column) => column.primaryKey().references('projects.id'))
      .addColumn('issue_number', 'integer')
      .addColumn('refreshed_at', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists gaps_issues`.execute(db);
  },
};
