import { DEFAULT_COMMAND, parseAllowedBots, type AllowedBots } from '../github/index.js';
import { isPermissionLevel, PERMISSION_LEVELS, type PermissionLevel } from '../github-api/permission.js';
import {
  isDocsFramework,
  unknownFrameworkMessage,
  type DeclaredDocsFramework,
} from '../core/docs-frameworks.js';
import { modelSpecProblem } from '../core/model-spec.js';
import { parseDocsRoot, type DocsRoot } from '../write-policy/index.js';
import { ActionError } from './action-error.js';
import type { BudgetBody } from '../protocol/agent-job.js';
import { parseBudgetLimits } from '../core/usage.js';

/** The Action's inputs (action.yml), validated and typed; built once in main.ts. */
export interface Inputs {
  /**
   * `server`: jobs run on the docwright server at `baseUrl`; `runner`: no server is named, and the
   * Action runs the job itself, in the runner, on the workflow's repository.
   */
  mode: 'server' | 'runner';
  apiKey: string;
  projectId: string;
  baseUrl: string;
  /** Instruction for events other than comments; empty when not given. */
  prompt: string;
  /** Send a follow-up to this job instead of creating one. */
  jobId: string | null;
  command: string;
  wait: boolean;
  timeoutMs: number;
  pollIntervalMs: number;
  githubToken: string;
  comment: boolean;
  permission: PermissionLevel;
  allowedBots: AllowedBots;
  /** The model of jobs run in the runner (`builtin` or `<provider>:<model>`); empty: the settings file's, else builtin. */
  model: string;
  /** `max-turns`, `max-tokens`, `max-cost`: the limits of a job this step creates, in runner or server. */
  budget: BudgetBody;
}

/** The inputs that decide whether an event is for the Action at all (route.ts). */
export type RouteInputs = Pick<Inputs, 'command' | 'allowedBots' | 'prompt' | 'jobId'>;

/**
 * The inputs of the docs check on a pull request event. It needs neither a server nor a job, so
 * nothing of `Inputs` but the token and the command is read: a workflow that only checks its pull
 * requests sets none of the job's inputs.
 */
export interface DocsCheckInputs {
  githubToken: string;
  /** The docs root in the checkout; null: the settings file's `docs_root`, else `docs`. */
  docs: DocsRoot | null;
  /** null: the settings file's `docs_framework`, else found from the files. */
  docsFramework: DeclaredDocsFramework | null;
  /** Fail the step when a page is left stale (by default the check only warns). */
  failOnStale: boolean;
  /** The command the check's hint names (`/docs sync`); the settings file's when this is the default. */
  command: string;
}

/** Reads one input the way the runner passes it (`INPUT_<NAME>`): trimmed, empty when unset. */
export type ReadInput = (name: string) => string;

/**
 * Only the inputs routing needs, so a comment that is not a command ends successfully even where
 * the other inputs are unusable (a fork's review comment runs without secrets).
 */
export function parseRouteInputs(read: ReadInput): RouteInputs {
  const problems: string[] = [];
  const inputs = routeInputs(read, problems);
  if (problems.length > 0) throw new ActionError(`Invalid inputs: ${problems.join('; ')}.`);
  return inputs;
}

/**
 * `gaps-issue`: on a `schedule` event, have the server refresh the project's "Docs gaps" issue.
 * Read apart from the job's inputs, since a schedule that only refreshes the issue has no prompt.
 */
export function parseGapsIssueInput(read: ReadInput): boolean {
  const problems: string[] = [];
  const value = boolean(read, 'gaps-issue', false, problems);
  if (problems.length > 0) throw new ActionError(`Invalid inputs: ${problems.join('; ')}.`);
  if (value && read('base-url') === '')
    throw new ActionError(
      "Invalid inputs: `gaps-issue` needs a docwright server (`base-url`, `api-key` and `project-id`): the server keeps the readers' questions the issue lists.",
    );
  return value;
}

/**
 * Validates the inputs, naming every input that is wrong in one error so a misconfigured workflow
 * is fixed in one edit. Defaults repeat action.yml's so a run outside the runner behaves the same.
 */
export function parseInputs(read: ReadInput): Inputs {
  const problems: string[] = [];
  const mode = read('base-url') === '' ? 'runner' : 'server';
  const required = (name: string): string => {
    const value = read(name);
    if (value === '' && mode === 'server') problems.push(`\`${name}\` is required with \`base-url\``);
    return value;
  };
  if (mode === 'runner') {
    const given = ['api-key', 'project-id'].filter((name) => read(name) !== '');
    if (given.length > 0)
      problems.push(
        `${given.map((name) => `\`${name}\``).join(' and ')} ${given.length > 1 ? 'are' : 'is'} set but \`base-url\` is not: give all three to use a docwright server, or none to run the job in the runner`,
      );
  }
  const inputs: Inputs = {
    mode,
    apiKey: required('api-key'),
    projectId: required('project-id'),
    baseUrl: baseUrl(read('base-url'), problems),
    ...routeInputs(read, problems),
    wait: boolean(read, 'wait', true, problems),
    timeoutMs: number(read, 'timeout-minutes', { fallback: 30, minimum: 0, unit: 60_000 }, problems),
    pollIntervalMs: number(read, 'poll-interval-seconds', { fallback: 10, minimum: 1, unit: 1000 }, problems),
    githubToken: read('github-token'),
    comment: boolean(read, 'comment', true, problems),
    permission: permission(read('permission') || 'write', problems),
    model: model(read('model'), mode, problems),
    budget: budget(read, problems),
  };
  if (mode === 'runner' && !inputs.wait)
    problems.push('`wait: false` needs a server (`base-url`): in the runner the job runs inside the step');
  if (mode === 'runner' && !inputs.githubToken)
    problems.push('`github-token` is empty: in the runner the job reads and writes the repository with it');
  if (problems.length > 0) throw new ActionError(`Invalid inputs: ${problems.join('; ')}.`);
  return inputs;
}

/** Validates the docs check's inputs, naming every wrong one in one error as parseInputs does. */
export function parseDocsCheckInputs(read: ReadInput): DocsCheckInputs {
  const problems: string[] = [];
  const { command } = routeInputs(read, problems);
  const githubToken = read('github-token');
  if (!githubToken)
    problems.push("`github-token` is empty: the docs check reads the pull request's diff with it");
  const inputs: DocsCheckInputs = {
    githubToken,
    docs: docsFolder(read('docs'), problems),
    docsFramework: docsFramework(read('docs-framework'), problems),
    failOnStale: boolean(read, 'fail-on-stale', false, problems),
    command,
  };
  if (problems.length > 0) throw new ActionError(`Invalid inputs: ${problems.join('; ')}.`);
  return inputs;
}

function docsFolder(value: string, problems: string[]): DocsRoot | null {
  if (value === '') return null;
  try {
    return parseDocsRoot(value);
  } catch (error) {
    problems.push(`\`docs\`: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

function docsFramework(value: string, problems: string[]): DeclaredDocsFramework | null {
  if (value === '') return null;
  const name = value.toLowerCase();
  if (isDocsFramework(name)) return name;
  problems.push(`\`docs-framework\`: ${unknownFrameworkMessage(value)}`);
  return null;
}

function model(value: string, mode: Inputs['mode'], problems: string[]): string {
  if (value === '') return value;
  if (mode === 'server')
    problems.push("`model` applies to jobs run in the runner; a server job uses its project's model");
  else {
    const problem = modelSpecProblem(value);
    if (problem) problems.push(`\`model\`: ${problem}`);
  }
  return value;
}

/** The limits inputs, each optional; a value that is not a positive number names the input. */
function budget(read: ReadInput, problems: string[]): BudgetBody {
  const parsed = parseBudgetLimits(
    { turns: read('max-turns'), tokens: read('max-tokens'), cost: read('max-cost') },
    (name) => `\`${name}\``,
  );
  problems.push(...parsed.problems);
  return parsed.fields;
}

function routeInputs(read: ReadInput, problems: string[]): RouteInputs {
  const command = read('command') || DEFAULT_COMMAND;
  if (/\s/.test(command)) problems.push('`command` must be one word, such as /docs');
  return {
    prompt: read('prompt'),
    jobId: read('job-id') || null,
    command,
    allowedBots: parseAllowedBots(read('allowed-bots')),
  };
}

function baseUrl(value: string, problems: string[]): string {
  if (value === '') return value;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  problems.push('`base-url` must be an http(s) address such as https://docwright.example.com');
  return value;
}

/** YAML 1.2 core booleans, as `@actions/core`'s `getBooleanInput` accepts them. */
function boolean(read: ReadInput, name: string, fallback: boolean, problems: string[]): boolean {
  const value = read(name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  problems.push(`\`${name}\` must be true or false, not "${value}"`);
  return fallback;
}

function number(
  read: ReadInput,
  name: string,
  rule: { fallback: number; minimum: number; unit: number },
  problems: string[],
): number {
  const value = read(name);
  const parsed = value === '' ? rule.fallback : Number(value);
  const valid = Number.isFinite(parsed) && (rule.minimum === 0 ? parsed > 0 : parsed >= rule.minimum);
  if (!valid) {
    const bound = rule.minimum === 0 ? 'greater than 0' : `at least ${rule.minimum}`;
    problems.push(`\`${name}\` must be a number ${bound}, not "${value}"`);
    return rule.fallback * rule.unit;
  }
  return parsed * rule.unit;
}

function permission(value: string, problems: string[]): PermissionLevel {
  if (isPermissionLevel(value)) return value;
  problems.push(`\`permission\` must be one of ${PERMISSION_LEVELS.join(', ')}, not "${value}"`);
  return 'write';
}
