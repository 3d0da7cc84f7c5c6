/** A branch head as docwright's forge keeps it: the commit, its tree and its message. */
export interface BranchHead {
  sha: string;
  tree: string;
  message: string;
}

/** What a command needs to know about a repository before it starts, read in one request. */
export interface RepositoryStart {
  /** The settings file's text: the repository's own, else the owner's `.github` repository's; null when neither has one. */
  settingsText: string | null;
  /** The default branch and its head as GitHub answers now; null for an empty repository. */
  defaultBranch: { name: string; head: BranchHead } | null;
  /** The repository's GraphQL node id (a commit's `createRef` names the repository by it). */
  repositoryId: string | null;
}

/** The part of an Octokit this reads with: GraphQL (Probot's and `@octokit/rest`'s clients have it). */
export interface GraphqlClient {
  graphql: <T>(query: string, variables: Record<string, unknown>) => Promise<T>;
}

const QUERY = `query docwrightRepositoryStart($owner: String!, $repo: String!, $file: String!) {
  repository(owner: $owner, name: $repo) {
    id
    file: object(expression: $file) { ... on Blob { text } }
    defaultBranchRef { name target { oid ... on Commit { message tree { oid } } } }
  }
  fallback: repository(owner: $owner, name: ".github") {
    file: object(expression: $file) { ... on Blob { text } }
  }
}`;

interface Answer {
  repository: {
    id?: string;
    file: { text?: string | null } | null;
    defaultBranchRef: {
      name: string;
      target: { oid: string; message?: string; tree?: { oid: string } } | null;
    } | null;
  } | null;
  fallback: { file: { text?: string | null } | null } | null;
}

/**
 * One GraphQL request instead of three REST ones: `.github/<file>` on the default branch (the
 * same file, with the same fallback to the owner's `.github` repository, that Probot's
 * `context.config` reads), and the default branch's head, fresh for the run that follows. An
 * owner without a `.github` repository, or one the installation cannot see, is an error GitHub
 * reports beside the data; only the repository itself must be readable.
 */
export async function readRepositoryStart(
  octokit: GraphqlClient,
  repository: { owner: string; repo: string },
  file: string,
): Promise<RepositoryStart> {
  const variables = { owner: repository.owner, repo: repository.repo, file: `HEAD:${file}` };
  let answer: Answer;
  try {
    answer = await octokit.graphql<Answer>(QUERY, variables);
  } catch (error) {
    const partial = (error as { data?: Answer }).data;
    if (!partial?.repository) throw error;
    answer = partial;
  }
  const ownText = answer.repository?.file?.text ?? null;
  const branch = answer.repository?.defaultBranchRef ?? null;
  const target = branch?.target;
  return {
    settingsText: ownText ?? answer.fallback?.file?.text ?? null,
    defaultBranch:
      branch && target?.tree && target.message !== undefined
        ? { name: branch.name, head: { sha: target.oid, tree: target.tree.oid, message: target.message } }
        : null,
    repositoryId: answer.repository?.id ?? null,
  };
}
