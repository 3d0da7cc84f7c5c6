import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The files each run of a job committed, kept with the job instead of in one process's memory, so
 * the status comment names them on any replica and after a restart without asking GitHub.
 */
export class RunStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Before a run's commit: the paths it is about to write (a repeated attempt replaces them). */
  async planned(jobId: string, runKey: string, paths: string[], now = new Date()): Promise<void> {
    const json = JSON.stringify([...new Set(paths)].sort());
    await this.db
      .insertInto('job_run_files')
      .values({ job_id: jobId, run_key: runKey, paths: json, landed: 0, created_at: now.toISOString() })
      .onConflict((conflict) =>
        conflict.columns(['job_id', 'run_key']).doUpdateSet({ paths: json, landed: 0 }),
      )
      .execute();
  }

  /** The run's commit is on the branch: its paths count among the job's changes. */
  async landed(jobId: string, runKey: string): Promise<void> {
    await this.db
      .updateTable('job_run_files')
      .set({ landed: 1 })
      .where('job_id', '=', jobId)
      .where('run_key', '=', runKey)
      .where('landed', '=', 0)
      .execute();
  }

  /** Every path the job's landed runs changed, sorted; null when none is recorded. */
  async changedFiles(jobId: string): Promise<string[] | null> {
    const rows = await this.db
      .selectFrom('job_run_files')
      .select('paths')
      .where('job_id', '=', jobId)
      .where('landed', '=', 1)
      .execute();
    if (rows.length === 0) return null;
    const paths = new Set<string>();
    for (const row of rows) for (const path of JSON.parse(row.paths) as string[]) paths.add(path);
    return [...paths].sort();
  }
}
