import type { ProjectRow } from './projects.js';

/** A project's `writable:` globs. */
export function projectWritable(project: Pick<ProjectRow, 'writable'>): string[] {
  return (project.writable ?? '').split('\n').filter((glob) => glob.trim() !== '');
}
