import { statSync } from 'node:fs';
import path from 'node:path';
import { checkDocs, folderDocsTree, formatProblemsForTerminal, summarizeProblems } from '../checks/index.js';
import { parseDocsRoot } from '../write-policy/index.js';

export interface CheckCommandOptions {
  /** Folder of the docs inside the checked folder (a repository's `docs/`); default: the folder itself. */
  docsRoot?: string;
}

export interface CheckCommandResult {
  /** What to print: one problem a line and a summary, or a line saying all is well. */
  output: string;
  /** False when problems were found (the command exits with 1). */
  ok: boolean;
}

/**
 * `docwright check [--docs-root DIR] [PATH]`: the docs checks every job runs, over a folder on
 * disk, so that authors (and CI) see the same findings before they push.
 */
export async function checkCommand(
  folder: string,
  options: CheckCommandOptions = {},
): Promise<CheckCommandResult> {
  const root = path.resolve(folder, parseDocsRoot(options.docsRoot ?? ''));
  if (!isFolder(root)) throw new Error(`${root} is not a folder`);
  const problems = await checkDocs(folderDocsTree(root));
  if (problems.length === 0) return { output: `${root}: no problems found`, ok: true };
  return {
    output: `${formatProblemsForTerminal(problems)}\n\n${root}: ${summarizeProblems(problems)}`,
    ok: false,
  };
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
