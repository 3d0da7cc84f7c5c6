import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { isValidBranchName } from '../github-api/repository-name.js';
import { SETTINGS_FILE } from './settings-file.js';
import { parseDocsRoot, type DocsRoot } from '../write-policy/index.js';
import {
  isDocsFramework,
  unknownFrameworkMessage,
  type DeclaredDocsFramework,
} from '../core/docs-frameworks.js';
import { DocwrightError } from '../core/errors.js';
import { modelSpecProblem } from '../core/model-spec.js';
import { GapsQuerySchema } from '../protocol/feedback.js';
import { BudgetSchema } from '../protocol/agent-job.js';
import { budgetFromFields, type JobBudget } from '../core/usage.js';
import { DEFAULT_COMMAND, parseAllowedBots, type AllowedBots } from './index.js';
import { PERMISSION_LEVELS } from '../github-api/permission.js';
import type { PermissionLevel } from '../github-api/permission.js';

export { SETTINGS_FILE } from './settings-file.js';

/** One `writable:` glob, relative to the repository: `README.md`, `CHANGELOG.md`, `api/*.yaml`. */
const writableGlob = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  .refine((glob) => !/[\u0000-\u001F\u007F]/.test(glob), 'must not hold control characters');

const botList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value.join(',') : value));

/**
 * `.github/docwright.yml`. Every key is optional; snake_case like the YAML of most
 * GitHub configuration files. Unknown keys are refused so a typo does not pass silently.
 */
const SettingsSchema = z
  .object({
    command: z
      .string()
      .regex(/^\/[\w-]{1,32}$/, 'must be a slash and a word, e.g. /docs')
      .default(DEFAULT_COMMAND),
    docs_root: z.string().default('').transform(docsRoot),
    docs_framework: z
      .string()
      .superRefine((value, context) => {
        if (!isDocsFramework(value))
          context.addIssue({ code: 'custom', message: unknownFrameworkMessage(value) });
      })
      .optional(),
    writable: z
      .union([writableGlob, z.array(writableGlob).max(50)])
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .default([]),
    base_branch: z.string().refine(isValidBranchName, 'must be a valid branch name').optional(),
    required_permission: z.enum(PERMISSION_LEVELS).exclude(['none']).default('write'),
    allowed_bots: botList.default(''),
    model: z
      .string()
      .superRefine((value, context) => {
        const problem = modelSpecProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    budget: BudgetSchema.optional(),
    branch_prefix: z
      .string()
      .refine((prefix) => isValidBranchName(`${prefix}x`), 'must make valid branch names')
      .default('docwright/job-'),
    sync: z
      .object({
        docs_repository: z
          .string()
          .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name, e.g. octo-org/docs')
          .optional(),
        on_merge: z.boolean().default(false),
        check: z.boolean().default(false),
      })
      .strict()
      .default({ on_merge: false, check: false }),
    gaps: z
      .object({
        issue: z.boolean().default(false),
        // The period of the report, as `?since=` of the gaps route reads it.
        since: GapsQuerySchema.shape.since,
        site_url: z
          .url({ protocol: /^https?$/, error: 'must be the http(s) address of the docs site' })
          .optional(),
      })
      .strict()
      .default({ issue: false, since: '30d' }),
  })
  .strict();

/** The docs root, read the one way every docs root is read (write-policy/docs-root.ts). */
function docsRoot(value: string, context: z.RefinementCtx): DocsRoot {
  try {
    return parseDocsRoot(value);
  } catch (error) {
    context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
}

/** A repository's settings, with defaults filled in. */
export interface RepositorySettings {
  command: string;
  /** Folder of the docs, relative to the repository root; '' for the root. */
  docsRoot: DocsRoot;
  /** The docs framework named (`docs_framework:`); null: found from the repository's files. */
  docsFramework: DeclaredDocsFramework | null;
  /** Globs of files outside the write policy's defaults that jobs may write (`README.md`). */
  writable: string[];
  /** The branch jobs start from and open pull requests against; null: the repository's default. */
  baseBranch: string | null;
  requiredPermission: PermissionLevel;
  allowedBots: AllowedBots;
  /** Null: the server's default model. */
  model: string | null;
  /** Limits of the repository's jobs (`budget: { max_turns, max_tokens, max_cost }`); empty: the server's. */
  budget: JobBudget;
  branchPrefix: string;
  /**
   * `/docs sync`: where the docs of this repository's code live, whether a merge runs it, and
   * whether pull requests get the docs check.
   */
  sync: {
    /** `owner/name` of the repository holding the docs; null: this repository. */
    docsRepository: string | null;
    /** A merged pull request gets the same docs sync job as `/docs sync` in its conversation. */
    onMerge: boolean;
    /** Every code pull request gets a check run listing the docs pages it makes stale. */
    check: boolean;
  };
  /** The "Docs gaps" issue the App keeps current from readers' unanswered questions. */
  gaps: {
    issue: boolean;
    /** The period of the report: `30d`, `12h`. */
    since: string;
    /** The docs site's address, which the closest pages' paths are links under; null: paths only. */
    siteUrl: string | null;
  };
}

/** Settings that could not be read, and the command that should hear about it. */
export class SettingsError extends DocwrightError {
  override readonly name = 'SettingsError';
  constructor(
    message: string,
    /** The command the broken file seems to configure, so only requests get the explanation. */
    readonly command: string,
  ) {
    // The repository's file is wrong until someone edits it: asking again changes nothing.
    super('invalid_request', message, { retryable: false });
  }
}

/** The defaults: what a repository without `.github/docwright.yml` gets. */
export const DEFAULT_SETTINGS: RepositorySettings = parseSettings(null);

/** Validates the file's content (null when absent); throws SettingsError naming the bad key. */
export function parseSettings(raw: unknown): RepositorySettings {
  const parsed = SettingsSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
    const command =
      typeof raw === 'object' && raw !== null && typeof (raw as { command?: unknown }).command === 'string'
        ? (raw as { command: string }).command
        : DEFAULT_COMMAND;
    throw new SettingsError(
      `.github/${SETTINGS_FILE} is not valid${key ? ` (${key})` : ''}: ${issue?.message ?? 'invalid'}`,
      command,
    );
  }
  const values = parsed.data;
  return {
    command: values.command,
    docsRoot: values.docs_root,
    docsFramework: (values.docs_framework as DeclaredDocsFramework | undefined) ?? null,
    writable: values.writable,
    baseBranch: values.base_branch ?? null,
    requiredPermission: values.required_permission,
    allowedBots: parseAllowedBots(values.allowed_bots),
    model: values.model ?? null,
    budget: budgetFromFields(values.budget),
    branchPrefix: values.branch_prefix,
    sync: {
      docsRepository: values.sync.docs_repository ?? null,
      onMerge: values.sync.on_merge,
      check: values.sync.check,
    },
    gaps: {
      issue: values.gaps.issue,
      since: values.gaps.since,
      siteUrl: values.gaps.site_url ?? null,
    },
  };
}

/**
 * The settings of a repository from its file's text (null when it has none), or the error that
 * says what is wrong with the file: how the App and the Action both read it.
 */
export function settingsFromText(text: string | null): RepositorySettings | SettingsError {
  let raw: unknown = null;
  if (text !== null) {
    try {
      raw = parseYaml(text) as unknown;
    } catch {
      return new SettingsError(`.github/${SETTINGS_FILE} could not be parsed as YAML`, DEFAULT_COMMAND);
    }
  }
  try {
    return parseSettings(raw);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
}

/** The keys the file sets itself, so a workflow input stands where the file is silent. */
export function settingsKeys(text: string | null): Set<string> {
  try {
    const raw = text === null ? null : (parseYaml(text) as unknown);
    return new Set(typeof raw === 'object' && raw !== null ? Object.keys(raw) : []);
  } catch {
    return new Set();
  }
}
