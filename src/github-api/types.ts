import type { Octokit } from '@octokit/rest';

/**
 * The part of an Octokit the shared helpers use. `@octokit/rest` (the Action) and Probot's
 * `context.octokit` both fit, so the helpers never construct a client of their own.
 */
export interface GitHubApi {
  rest: Pick<Octokit['rest'], 'issues' | 'pulls' | 'reactions' | 'repos'>;
}

/** The author of a comment, an issue or a pull request, as webhook payloads and the REST API give it. */
export interface GitHubUser {
  login: string;
  /** `User`, `Bot` or `Organization`. */
  type: string;
}

/**
 * An issue or a pull request conversation: where the status comment lives. Review comments on a
 * pull request belong to the pull request's conversation too.
 */
export interface Thread {
  owner: string;
  repo: string;
  /** The issue or pull request number. */
  number: number;
  isPullRequest: boolean;
}

/**
 * What the GitHub forge needs of an Octokit: the REST methods and GraphQL. createOctokit()'s client and
 * Probot's installation-authenticated `ProbotOctokit` both fit.
 */
export type GitHubClient = Pick<Octokit, 'rest' | 'graphql'>;
