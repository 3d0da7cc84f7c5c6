import {
  DEFAULT_COMMAND,
  isPermissionLevel,
  parseAllowedBots,
  PERMISSION_LEVELS,
  type AllowedBots,
  type PermissionLevel,
} from '../github/index.js';
import { ActionError } from './action-error.js';

/** The Action's inputs (action.yml), validated and typed; built once in main.ts. */
export interface Inputs {
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
}

/** The inputs that decide whether an event is for the Action at all (route.ts). */
export type RouteInputs = Pick<Inputs, 'command' | 'allowedBots' | 'prompt' | 'jobId'>;

/** Reads one input the way `core.getInput` does: trimmed, empty when unset. */
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
 * Validates the inputs, naming every input that is wrong in one error so a misconfigured workflow
 * is fixed in one edit. Defaults repeat action.yml's so a run outside the runner behaves the same.
 */
export function parseInputs(read: ReadInput): Inputs {
  const problems: string[] = [];
  const required = (name: string): string => {
    const value = read(name);
    if (value === '') problems.push(`\`${name}\` is required`);
    return value;
  };
  const inputs: Inputs = {
    apiKey: required('api-key'),
    projectId: required('project-id'),
    baseUrl: baseUrl(required('base-url'), problems),
    ...routeInputs(read, problems),
    wait: boolean(read, 'wait', true, problems),
    timeoutMs: number(read, 'timeout-minutes', { fallback: 30, minimum: 0, unit: 60_000 }, problems),
    pollIntervalMs: number(read, 'poll-interval-seconds', { fallback: 10, minimum: 1, unit: 1000 }, problems),
    githubToken: read('github-token'),
    comment: boolean(read, 'comment', true, problems),
    permission: permission(read('permission') || 'write', problems),
  };
  if (problems.length > 0) throw new ActionError(`Invalid inputs: ${problems.join('; ')}.`);
  return inputs;
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

/** YAML 1.2 core booleans, as `core.getBooleanInput` accepts them. */
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
