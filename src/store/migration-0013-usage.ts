import type { Kysely, Migration } from 'kysely';

/**
 * What jobs cost and what they may cost: a job's usage over all its runs, what the unfinished run's
 * earlier attempts spent (so a retry does not spend its budget again), each run's usage beside its
 * reply, and the limits a job or a project's settings set.
 */
export const usageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('usage', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('run_usage', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('budget', 'text').execute();
    await db.schema.alterTable('job_messages').addColumn('usage', 'text').execute();
    await db.schema.alterTable('projects').addColumn('budget', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('projects').dropColumn('budget').execute();
    await db.schema.alterTable('job_messages').dropColumn('usage').execute();
    for (const column of ['budget', 'run_usage', 'usage'])
      await db.schema.alterTable('jobs').dropColumn(column).execute();
  },
};
