import type { CheckProblem } from './types.js';

/** `guides/setup.mdx:12` or just the file when the problem has no line. */
function problemLocation(problem: CheckProblem): string {
  return problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
}

/** One line a problem, for a terminal: `guides/setup.mdx:12  the link ... [broken-link]`. */
export function formatProblemsForTerminal(problems: readonly CheckProblem[]): string {
  return problems
    .map((problem) => `${problemLocation(problem)}  ${problem.message}  [${problem.rule}]`)
    .join('\n');
}

/** A Markdown list of problems, for a reply, a PR body or a model's repair prompt. */
export function formatProblemsAsMarkdown(problems: readonly CheckProblem[]): string {
  return problems.map((problem) => `- \`${problemLocation(problem)}\`: ${problem.message}`).join('\n');
}

/** `3 problems in 2 files`. */
export function summarizeProblems(problems: readonly CheckProblem[]): string {
  const files = new Set(problems.map((problem) => problem.file)).size;
  const count = problems.length;
  return `${count} ${count === 1 ? 'problem' : 'problems'} in ${files} ${files === 1 ? 'file' : 'files'}`;
}
