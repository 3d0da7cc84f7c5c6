import { isBlocking, type CheckProblem } from './types.js';

/** `guides/setup.mdx:12` or just the file when the problem has no line. */
function problemLocation(problem: CheckProblem): string {
  return problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
}

/**
 * One line a problem, for a terminal: `guides/setup.mdx:12  error  the link ... [broken-link]`. An
 * error is what the site's framework refuses to build; a warning, what it builds but a reader
 * would trip on.
 */
export function formatProblemsForTerminal(problems: readonly CheckProblem[]): string {
  return problems
    .map(
      (problem) =>
        `${problemLocation(problem)}  ${isBlocking(problem) ? 'error' : 'warning'}  ${problem.message}  [${problem.rule}]`,
    )
    .join('\n');
}

/** A Markdown list of problems, for a reply, a PR body or a model's repair prompt. */
export function formatProblemsAsMarkdown(problems: readonly CheckProblem[]): string {
  return problems.map((problem) => `- \`${problemLocation(problem)}\`: ${problem.message}`).join('\n');
}

/** `1 error and 2 warnings in 2 files`. */
export function summarizeProblems(problems: readonly CheckProblem[]): string {
  const files = new Set(problems.map((problem) => problem.file)).size;
  const errors = problems.filter(isBlocking).length;
  const warnings = problems.length - errors;
  const counts = [
    errors > 0 ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '',
    warnings > 0 ? `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : '',
  ].filter(Boolean);
  return `${counts.join(' and ')} in ${files} ${files === 1 ? 'file' : 'files'}`;
}
