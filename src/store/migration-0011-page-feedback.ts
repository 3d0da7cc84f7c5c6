import { sql, type Kysely, type Migration } from 'kysely';
import { autoIncrementKey } from './dialect.js';

/**
 * Readers' (and their agents') reports that a docs page is wrong, unclear or missing something,
 * sent through the MCP server's `submit_feedback` tool: kept for the project's maintainers.
 */
export const pageFeedbackMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('page_feedback')
      .addColumn('id', 'integer', autoIncrementKey(db))
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id'))
      .addColumn('page_path', 'text', (column) => column.notNull())
      .addColumn('problem', 'text', (column) => column.notNull())
      // The key it came with (its id, never the key); null on stdio, where no key is asked.
      .addColumn('key_id', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('page_feedback_by_project')
      .on('page_feedback')
      .columns(['project_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists page_feedback`.execute(db);
  },
};
