import { DocwrightError } from '../core/errors.js';
import type { GraphqlClient } from '../github-api/repository-start.js';

/** GraphQL node ids of a command: the comment to react to, and the issue or pull request it is in. */
export interface CommandNodes {
  commentNodeId: string;
  subjectNodeId: string;
}

const MUTATION = `mutation docwrightAcknowledge($comment: ID!, $subject: ID!, $body: String!) {
  reaction: addReaction(input: { subjectId: $comment, content: EYES }) { clientMutationId }
  status: addComment(input: { subjectId: $subject, body: $body }) { commentEdge { node { databaseId } } }
}`;

interface Answer {
  reaction: unknown;
  status: { commentEdge: { node: { databaseId: number | null } | null } | null } | null;
}

/**
 * The 👀 reaction to a command and its first status comment in one request (GraphQL runs the two
 * mutations in order). Returns the new comment's REST id, which later edits use. A reaction GitHub
 * refused (the command was deleted meanwhile) does not undo the comment; a comment it refused is
 * an error, and the caller posts both the REST way.
 */
export async function reactAndComment(
  octokit: GraphqlClient,
  nodes: CommandNodes,
  body: string,
): Promise<number> {
  let answer: Answer | undefined;
  try {
    answer = await octokit.graphql<Answer>(MUTATION, {
      comment: nodes.commentNodeId,
      subject: nodes.subjectNodeId,
      body,
    });
  } catch (error) {
    answer = (error as { data?: Answer }).data;
    if (!answer?.status?.commentEdge?.node?.databaseId) throw error;
  }
  const id = answer.status?.commentEdge?.node?.databaseId;
  // Read where GitHub's answer is: the comment may exist, so asking again could post a second one.
  if (!id)
    throw new DocwrightError('forge_error', 'GitHub did not return the status comment it created', {
      retryable: false,
    });
  return id;
}
