import { DocwrightError } from '../../core/errors.js';
import type { PlannedChange } from '../git-change-plan.js';
import type { GraphqlClient } from '../../github-api/repository-start.js';
import type { RepositoryName } from '../../github-api/repository-name.js';
import { BranchMovedError } from '../local-git.js';

/**
 * Bytes of file contents one GraphQL commit carries at most (base64 adds a third on the wire); a
 * larger change goes through the Git Data API, whose trees are sent in chunks.
 */
const GRAPHQL_COMMIT_BYTES = 2_000_000;

/** What a commit request says, as the GraphQL commit needs it. */
export interface GraphqlCommitInput {
  name: RepositoryName;
  /** The repository's GraphQL node id: `createRef` names the repository by it. */
  repositoryId: string;
  branch: string;
  /** The commit the change applies to: the branch's head, or the new branch's starting point. */
  parent: string;
  /** The branch head the caller saw; null when the branch must not exist yet. */
  expectedHead: string | null;
  changes: readonly PlannedChange[];
  message: string;
}

/** The commit written: its id and its tree's (kept, like the REST path's, for later reads). */
export interface WrittenCommit {
  sha: string;
  tree: string;
}

const COMMIT_FIELDS = `commit: createCommitOnBranch(input: { branch: { repositoryNameWithOwner: $repository, branchName: $branch }, expectedHeadOid: $parent, message: $message, fileChanges: $changes }) { commit { oid tree { oid } } }`;

const NEW_BRANCH = `mutation docwrightCommit($repositoryId: ID!, $ref: String!, $repository: String!, $branch: String!, $parent: GitObjectID!, $message: CommitMessage!, $changes: FileChanges!) {
  branch: createRef(input: { repositoryId: $repositoryId, name: $ref, oid: $parent }) { ref { name } }
  ${COMMIT_FIELDS}
}`;

const EXISTING_BRANCH = `mutation docwrightCommit($repository: String!, $branch: String!, $parent: GitObjectID!, $message: CommitMessage!, $changes: FileChanges!) {
  ${COMMIT_FIELDS}
}`;

interface Answer {
  branch?: { ref: { name: string } | null } | null;
  commit: { commit: { oid: string; tree: { oid: string } } | null } | null;
}

interface GraphqlErrorEntry {
  type?: string;
  path?: (string | number)[];
  message: string;
}

/**
 * Whether a change can be one GraphQL commit: `createCommitOnBranch` writes regular files only
 * (an executable file would lose its mode), builds on the branch's head (so the parent must be
 * that head), and carries the contents in one request body.
 */
export function fitsGraphqlCommit(
  changes: readonly PlannedChange[],
  parent: string,
  expectedHead: string | null,
): boolean {
  if (expectedHead !== null && expectedHead !== parent) return false;
  let bytes = 0;
  for (const change of changes) {
    if (change.content === null) continue;
    if (change.mode !== '100644') return false;
    bytes += change.content.length;
  }
  return bytes <= GRAPHQL_COMMIT_BYTES;
}

/**
 * The change as one commit in one GraphQL request: `createCommitOnBranch`, after `createRef` in
 * the same request for a new branch (GitHub runs a document's mutations one after another). Its
 * `expectedHeadOid` is the compare-and-set: a branch that moved is a BranchMovedError, as on the
 * REST path. Returns null when this GitHub offers neither mutation (an older Enterprise Server):
 * the caller writes the commit through the Git Data API then.
 */
export async function commitThroughGraphql(
  client: GraphqlClient,
  input: GraphqlCommitInput,
): Promise<WrittenCommit | null> {
  const isNew = input.expectedHead === null;
  const [headline = '', ...rest] = input.message.replace(/\n+$/, '').split('\n');
  const variables = {
    repository: `${input.name.owner}/${input.name.repo}`,
    branch: input.branch,
    parent: input.parent,
    message: { headline, body: rest.join('\n').replace(/^\n+/, '') },
    changes: {
      additions: input.changes
        .filter((change) => change.content !== null)
        .map((change) => ({ path: change.path, contents: change.content!.toString('base64') })),
      deletions: input.changes
        .filter((change) => change.content === null)
        .map((change) => ({ path: change.path })),
    },
    ...(isNew ? { repositoryId: input.repositoryId, ref: `refs/heads/${input.branch}` } : {}),
  };
  const answer = await mutate(client, isNew ? NEW_BRANCH : EXISTING_BRANCH, variables);
  if (answer === 'unsupported') return null;
  const commit = answer.data?.commit?.commit;
  if (commit) return { sha: commit.oid, tree: commit.tree.oid };
  const errors = answer.errors;
  if (isNew && answer.data?.branch?.ref && errors.some((error) => error.type === 'NOT_FOUND')) {
    // The branch was made, but the commit in the same request did not see it yet: once more alone.
    const again = await mutate(client, EXISTING_BRANCH, variables);
    const retried = again === 'unsupported' ? null : again.data?.commit?.commit;
    if (retried) return { sha: retried.oid, tree: retried.tree.oid };
    if (again !== 'unsupported') throw failure(input, again.errors);
  }
  throw failure(input, errors);
}

type MutationAnswer = { data: Answer | null | undefined; errors: GraphqlErrorEntry[] } | 'unsupported';

async function mutate(
  client: GraphqlClient,
  query: string,
  variables: Record<string, unknown>,
): Promise<MutationAnswer> {
  try {
    return { data: await client.graphql<Answer>(query, variables), errors: [] };
  } catch (error) {
    const answered = error as { errors?: GraphqlErrorEntry[]; data?: Answer | null };
    if (!Array.isArray(answered.errors)) throw error;
    // Errors without a path are the schema's: the document was refused before anything ran.
    const refusedWhole = answered.data == null && answered.errors.every((entry) => entry.path === undefined);
    if (refusedWhole) return 'unsupported';
    return { data: answered.data, errors: answered.errors };
  }
}

/** The error of a commit GitHub refused: a moved branch, or its own words. */
function failure(input: GraphqlCommitInput, errors: GraphqlErrorEntry[]): Error {
  // A branch at another head than expected, one that appeared, or one that went away (deleted by
  // hand): all the same to the run, which looks the branch up again and retries.
  const stale = errors.some(
    (error) =>
      error.type === 'STALE_DATA' ||
      /already exists/i.test(error.message) ||
      (input.expectedHead !== null && error.type === 'NOT_FOUND'),
  );
  if (stale) return new BranchMovedError(input.branch, input.expectedHead);
  const said = errors.map((error) => error.message).join('; ') || 'no commit was returned';
  return new DocwrightError('forge_error', `GitHub refused the commit on ${input.branch}: ${said}`, {
    retryable: false,
  });
}
