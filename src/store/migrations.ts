import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { autoIncrementKey, binaryType } from './dialect.js';
import { pageFeedbackMigration } from './migration-0011-page-feedback.js';
import { gapsIssuesMigration } from './migration-0012-gaps-issues.js';
import { usageMigration } from './migration-0013-usage.js';

/**
 * Migrations live in code (not files found at run time) so the same list works from `lib/`, from
 * tests and from a bundle. Types stay portable between SQLite and PostgreSQL: text, integer, bigint;
 * numbered keys go through autoIncrementKey(db) and bytes through binaryType(db), which speak either
 * dialect.
 */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('repository', 'text', (column) => column.notNull())
        .addColumn('base_ref', 'text', (column) => column.notNull())
        .addColumn('docs_root', 'text', (column) => column.notNull().defaultTo(''))
        .addColumn('domain', 'text', (column) => column.unique())
        .addColumn('model', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('disabled_at', 'text')
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('hash', 'text', (column) => column.notNull().unique())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('project_id', 'text', (column) => column.references('projects.id'))
        .addColumn('domain', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id'))
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('repository_url', 'text', (column) => column.notNull())
        .addColumn('branch', 'text', (column) => column.notNull())
        .addColumn('pr_link', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addColumn('archived_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('jobs_by_project')
        .on('jobs')
        .columns(['project_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('jobs_claimable')
        .on('jobs')
        .columns(['status', 'lease_expires_at'])
        .execute();
      await db.schema
        .createTable('job_messages')
        .addColumn('id', 'integer', autoIncrementKey(db))
        .addColumn('job_id', 'text', (column) => column.notNull().references('jobs.id'))
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('state', 'text')
        .execute();
      await db.schema
        .createIndex('job_messages_by_job')
        .on('job_messages')
        .columns(['job_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['job_messages', 'jobs', 'api_keys', 'projects']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      }
    },
  },
  '0002_assistant': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').addColumn('allowed_origins', 'text').execute();
      await db.schema
        .createTable('assistant_threads')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id'))
        .addColumn('domain', 'text', (column) => column.notNull())
        .addColumn('fp', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('assistant_messages')
        .addColumn('id', 'integer', autoIncrementKey(db))
        .addColumn('thread_id', 'text', (column) => column.notNull().references('assistant_threads.id'))
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('sources', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('assistant_messages_by_thread')
        .on('assistant_messages')
        .columns(['thread_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists assistant_messages`.execute(db);
      await sql`drop table if exists assistant_threads`.execute(db);
      await db.schema.alterTable('projects').dropColumn('allowed_origins').execute();
    },
  },
  '0003_bot': {
    // GitHub ids (comments, installations) outgrow 32 bits: bigint (SQLite stores any integer alike).
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('projects')
        .addColumn('forge', 'text', (column) => column.notNull().defaultTo('local'))
        .execute();
      await db.schema.alterTable('projects').addColumn('installation_id', 'bigint').execute();
      await db.schema
        .createTable('job_threads')
        .addColumn('id', 'integer', autoIncrementKey(db))
        .addColumn('job_id', 'text', (column) => column.notNull().references('jobs.id'))
        .addColumn('repository', 'text', (column) => column.notNull())
        .addColumn('issue_number', 'integer', (column) => column.notNull())
        .addColumn('is_pull_request', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('status_comment_id', 'bigint')
        .addColumn('pr_number', 'integer')
        .addColumn('rendered_state', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('job_threads_by_thread')
        .unique()
        .on('job_threads')
        .columns(['repository', 'issue_number', 'job_id'])
        .execute();
      await db.schema.createIndex('job_threads_by_job').on('job_threads').column('job_id').execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('event', 'text', (column) => column.notNull())
        .addColumn('received_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_time')
        .on('webhook_deliveries')
        .column('received_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists webhook_deliveries`.execute(db);
      await sql`drop table if exists job_threads`.execute(db);
      await db.schema.alterTable('projects').dropColumn('installation_id').execute();
      await db.schema.alterTable('projects').dropColumn('forge').execute();
    },
  },
  '0004_project_writable': {
    // The repository's `writable:` globs (one a line): files outside the defaults jobs may write.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').addColumn('writable', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').dropColumn('writable').execute();
    },
  },
  '0005_github_host_and_run_files': {
    async up(db: Kysely<unknown>) {
      // The GitHub a project's repository lives on: `owner/repo` alone would let a github.com
      // repository and an Enterprise Server one of the same name share a project.
      await db.schema
        .alterTable('projects')
        .addColumn('host', 'text', (column) => column.notNull().defaultTo(''))
        .execute();
      // Every GitHub project made before hosts were recorded was on github.com (a migration keeps the
      // value it had when written, whatever the code's default becomes later).
      await sql`update projects set host = 'github.com' where forge = 'github'`.execute(db);
      // The files each run committed, written before its commit and confirmed once the commit is
      // seen on the branch: any replica, or this one after a restart, can name a job's changes.
      await db.schema
        .createTable('job_run_files')
        .addColumn('job_id', 'text', (column) => column.notNull().references('jobs.id'))
        .addColumn('run_key', 'text', (column) => column.notNull())
        .addColumn('paths', 'text', (column) => column.notNull())
        .addColumn('landed', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('job_run_files_key', ['job_id', 'run_key'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists job_run_files`.execute(db);
      await db.schema.alterTable('projects').dropColumn('host').execute();
    },
  },
  '0006_section_embeddings': {
    // The embedding of each section text a project's docs index sent to the embedding model, so a
    // rebuild, a restart or another replica embeds only text it has not seen. Keyed by the text's
    // SHA-256, not by page or section: an unchanged section keeps its vector wherever it moves.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('section_embeddings')
        .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id'))
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('content_hash', 'text', (column) => column.notNull())
        .addColumn('dimensions', 'integer', (column) => column.notNull())
        .addColumn('vector', binaryType(db), (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('section_embeddings_key', ['project_id', 'model', 'content_hash'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists section_embeddings`.execute(db);
    },
  },
  '0007_run_books': {
    // Where the job's branch is after its last run, as the job's own books say: a follow-up starts
    // there without asking the forge, and a branch someone moved meanwhile fails the commit's
    // compare-and-set, whose retry looks the branch up. And, with each reply of the agent, whether
    // the run behind it changed anything: a job that did nothing must not read as one that did.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('branch_head', 'text').execute();
      await db.schema.alterTable('job_messages').addColumn('changed', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('job_messages').dropColumn('changed').execute();
      await db.schema.alterTable('jobs').dropColumn('branch_head').execute();
    },
  },
  '0008_key_last_used': {
    // When each key was last used, to the minute: an operator deciding which key to revoke sees
    // which are alive.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
    },
  },
  '0009_docs_framework': {
    // The docs framework a project's settings name, for a repository whose framework its files do
    // not show (a config computed elsewhere); null lets the docs model find it.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').addColumn('docs_framework', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').dropColumn('docs_framework').execute();
    },
  },
  '0010_feedback': {
    // Readers' ratings of answers, and what each answer rested on: the public id a client rates it
    // by, whether it declined, how much of the question its best page held and named as its
    // subject (per mille), the closest pages and the question's words no page holds. The gaps report reads these instead of searching the docs again, so it shows
    // what readers were told then, not what today's docs would say.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('assistant_messages').addColumn('message_id', 'text').execute();
      await db.schema.alterTable('assistant_messages').addColumn('outcome', 'text').execute();
      await db.schema.alterTable('assistant_messages').addColumn('support', 'integer').execute();
      await db.schema.alterTable('assistant_messages').addColumn('closest', 'text').execute();
      await db.schema.alterTable('assistant_messages').addColumn('about', 'integer').execute();
      await db.schema.alterTable('assistant_messages').addColumn('unknown_words', 'text').execute();
      await db.schema
        .createIndex('assistant_messages_by_message_id')
        .on('assistant_messages')
        .columns(['thread_id', 'message_id'])
        .execute();
      await db.schema
        .createIndex('assistant_messages_by_time')
        .on('assistant_messages')
        .column('created_at')
        .execute();
      await db.schema
        .createTable('feedback')
        .addColumn('id', 'integer', autoIncrementKey(db))
        .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id'))
        .addColumn('thread_id', 'text', (column) => column.notNull().references('assistant_threads.id'))
        .addColumn('message_id', 'text', (column) => column.notNull())
        .addColumn('rating', 'text', (column) => column.notNull())
        .addColumn('comment', 'text')
        .addColumn('fp', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // One rating per answer: a second one replaces the first.
      await db.schema
        .createIndex('feedback_by_message')
        .unique()
        .on('feedback')
        .columns(['thread_id', 'message_id'])
        .execute();
      await db.schema
        .createIndex('feedback_by_project')
        .on('feedback')
        .columns(['project_id', 'updated_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists feedback`.execute(db);
      await sql`drop index if exists assistant_messages_by_time`.execute(db);
      await sql`drop index if exists assistant_messages_by_message_id`.execute(db);
      for (const column of ['unknown_words', 'about', 'closest', 'support', 'outcome', 'message_id'])
        await db.schema.alterTable('assistant_messages').dropColumn(column).execute();
    },
  },
  '0011_page_feedback': pageFeedbackMigration,
  '0012_gaps_issues': gapsIssuesMigration,
  '0013_usage': usageMigration,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
