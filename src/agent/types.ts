import type { Logger } from 'pino';
import type { CheckProblem } from '../checks/index.js';
import type { JobBudget, UsageMeter } from '../core/usage.js';
import type { Overlay } from '../forge/overlay.js';
import type { WritePolicy } from '../write-policy/index.js';

/** One stored message of a job: a user's instruction or the agent's reply. */
interface JobMessage {
  role: 'user' | 'agent';
  content: string;
  createdAt: string;
}

export interface AgentRunInput {
  jobId: string;
  /** The instruction(s) of this run, oldest first: usually one, several when follow-ups queued up. */
  instructions: string[];
  /** The job's earlier messages, for follow-ups that refer back ("now do the same for ..."). */
  history: JobMessage[];
  /** The repository at the job's branch (or base ref); the agent's edits go here. */
  files: Overlay;
  /**
   * Which paths may be written and why not (the docs root, symlinks, the repository's `writable:`
   * globs). The overlay enforces the same policy on every write.
   */
  policy: WritePolicy;
  signal: AbortSignal;
  logger: Logger;
  /** The job's limits (`max_turns`, `max_tokens`, `max_cost`): the model-driven agent stops at them. */
  budget?: JobBudget;
  /** Counts the run's model calls, tokens, tool calls and cost; earlier attempts of the run included. */
  usage?: UsageMeter;
  /** For a request made in a pull request review comment: the file (and line) it was written on. */
  reviewComment?: { path: string; line?: number };
}

export interface AgentResult {
  /** What the agent tells the requester: becomes the job's reply and the PR description. */
  reply: string;
  /** A short one-line summary for the commit and PR title, when the agent has one. */
  title?: string;
  /**
   * Present when the agent can fix what the docs checks found in its edits (the model-driven agent
   * continues its conversation). The run calls it a bounded number of times, checking after each,
   * and uses the last result; problems are given with repository paths.
   */
  repair?: (problems: CheckProblem[]) => Promise<AgentResult>;
}

/** Turns instructions into edits of an overlay. Implementations: builtin (./builtin), a model (./llm). */
export interface Agent {
  /** Reported as the job's `model`, e.g. `builtin` or `openai:gpt-5-mini`. */
  readonly model: string;
  run(input: AgentRunInput): Promise<AgentResult>;
}
