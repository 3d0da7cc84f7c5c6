import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_OUTPUT_BUDGET, type OutputBudget } from '../write-policy/output-budget.js';
import { ConfigError } from '../core/errors.js';
import { modelSpecProblem } from '../core/model-spec.js';
import { parsePriceTable, type JobBudget, type PriceTable } from '../core/usage.js';
import { modelProvidersFrom, type ModelProviders } from '../models/models.js';
import { enterpriseHosts, GITHUB_COM, type GitHubHosts } from '../github-api/hosts.js';

/** A model setting, refused with the sentence every place that names a model uses. */
const modelSetting = z.string().superRefine((value, context) => {
  const problem = modelSpecProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/**
 * All of docwright's settings, read once at the edge (the CLI) from the environment and flags.
 * Nothing below this module reads `process.env`.
 */
export const EnvSchema = z.object({
  DOCWRIGHT_DATA_DIR: z.string().min(1).default('.docwright'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DOCWRIGHT_MODEL: modelSetting.default('builtin'),
  DOCWRIGHT_EMBEDDING_MODEL: z
    .string()
    .regex(
      /^(openai|local):.+$/,
      'must be openai:<embedding model> or local:<model folder or hub id>, e.g. openai:text-embedding-3-small or local:/models/bge-small-en-v1.5',
    )
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (unset, the store is SQLite in the data dir)')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  // Unset: readable lines at a terminal, JSON otherwise.
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  DOCWRIGHT_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  // 25 s: with the 1 s idle poll, a dead replica's job is taken over within 30 s.
  DOCWRIGHT_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(25),
  // What one run of the model-driven agent may take before it stops (a model that never answers
  // fails the job with this in its reason).
  DOCWRIGHT_RUN_MINUTES: z.coerce.number().min(0.05).max(180).default(10),
  // How long a reader waits for the assistant's model to say anything before the answer ends in error.
  DOCWRIGHT_ANSWER_IDLE_SECONDS: z.coerce.number().min(1).max(600).default(30),
  DOCWRIGHT_JOB_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
  // A run's limits for jobs and projects that set none; unset: the model agent's own (40 model
  // calls, 600,000 tokens) and no cost limit.
  DOCWRIGHT_MAX_TURNS: z.coerce.number().int().min(1).max(1000).optional(),
  DOCWRIGHT_MAX_TOKENS: z.coerce.number().int().min(1).optional(),
  DOCWRIGHT_MAX_COST: z.coerce.number().positive().optional(),
  // US dollars per million tokens by model, as JSON; none shipped, since a price table nobody
  // updates would estimate costs wrong without anyone noticing.
  DOCWRIGHT_MODEL_PRICES: z.string().optional(),
  // Unset: readers' threads and their feedback are kept until their project is removed.
  DOCWRIGHT_THREAD_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  DOCWRIGHT_PUBLIC_URL: z.url().optional(),
  DOCWRIGHT_ASSISTANT_KEY_MONTHLY_LIMIT: z.coerce.number().int().min(1).default(10_000),
  DOCWRIGHT_ASSISTANT_ORG_HOURLY_LIMIT: z.coerce.number().int().min(1).default(10_000),
  DOCWRIGHT_ASSISTANT_IP_DAILY_LIMIT: z.coerce.number().int().min(1).default(10_000),
  // What one run may change, for every agent (README, "Configuration").
  DOCWRIGHT_MAX_FILES_CHANGED: z.coerce.number().int().min(1).default(DEFAULT_OUTPUT_BUDGET.maxFilesChanged),
  DOCWRIGHT_MAX_FILE_BYTES: z.coerce.number().int().min(1).default(DEFAULT_OUTPUT_BUDGET.maxFileBytes),
  DOCWRIGHT_MAX_CHANGE_BYTES: z.coerce.number().int().min(1).default(DEFAULT_OUTPUT_BUDGET.maxTotalBytes),
  DOCWRIGHT_TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false'),
  // 1 MiB: the largest prompt or conversation a person sends is far smaller.
  DOCWRIGHT_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  // GitHub caps webhook payloads at 25 MB and does not deliver larger ones.
  DOCWRIGHT_WEBHOOK_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(25 * 1024 * 1024),
  DOCWRIGHT_METRICS: z.enum(['true', 'false', '1', '0']).default('false'),
  DOCWRIGHT_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // The model providers' endpoints and credentials, under the names their SDKs document.
  DOCWRIGHT_MODEL_BASE_URL: z.url().optional(),
  DOCWRIGHT_MODEL_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  AWS_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  AWS_BEARER_TOKEN_BEDROCK: z.string().optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  GOOGLE_VERTEX_PROJECT: z.string().optional(),
  GOOGLE_VERTEX_LOCATION: z.string().optional(),
  GOOGLE_VERTEX_API_KEY: z.string().optional(),
  AZURE_RESOURCE_NAME: z.string().optional(),
  AZURE_API_KEY: z.string().optional(),
  // The GitHub App (Probot reads the same names) and token mode.
  APP_ID: z.coerce.number().int().positive().optional(),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  WEBHOOK_PROXY_URL: z.url().optional(),
  WEBHOOK_PATH: z.string().startsWith('/', 'must start with /').default('/api/github/webhooks'),
  GITHUB_TOKEN: z.string().optional(),
  // GitHub Enterprise Server, named as Probot names it: the host (and port), and http or https.
  GHE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be a host name, with a port if needed (no scheme, no path)')
    .optional(),
  GHE_PROTOCOL: z.enum(['http', 'https']).default('https'),
  NODE_ENV: z.string().optional(),
});

export interface Config {
  dataDir: string;
  port: number;
  host: string | undefined;
  /** The model for new jobs unless a project overrides it: `builtin` or `<provider>:<model>`. */
  model: string;
  /**
   * Embedding model for hybrid retrieval: `openai:<model>`, or `local:<folder or hub id>` run in
   * this process (a relative folder is made absolute here); unset, retrieval is full-text only.
   */
  embeddingModel: string | undefined;
  databaseUrl: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  logFormat?: 'json' | 'pretty';
  /** Jobs run at the same time by this process. */
  workers: number;
  /** How long a claimed job stays claimed without a heartbeat; a crashed run is taken over after it. */
  leaseMs: number;
  /** Wall time of one run of the model-driven agent. */
  runTimeMs: number;
  /** How long the assistant's model may stay silent before the reader's answer ends in an error. */
  answerIdleMs: number;
  /** Job creations, and separately follow-up messages, per project per hour. */
  jobRateLimit: number;
  /** A run's limits for jobs and projects that set none (`DOCWRIGHT_MAX_TURNS`, `_TOKENS`, `_COST`). */
  jobBudget: JobBudget;
  /** Prices per model (`DOCWRIGHT_MODEL_PRICES`), for the cost of runs and `max_cost`. */
  prices: PriceTable;
  /** Days readers' threads, messages and feedback are kept; undefined: kept until their project goes. */
  threadDays: number | undefined;
  /** The address printed for people and links; defaults to http://localhost:PORT. */
  publicUrl: string;
  /** Assistant uses per key per month, per organization (project) per hour, per IP per day. */
  assistantLimits: { keyPerMonth: number; projectPerHour: number; ipPerDay: number };
  /** What one job run may change: files, bytes per file, bytes in all (every agent, one place). */
  outputBudget: OutputBudget;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy you run). */
  trustProxy: boolean;
  /** Largest request body of the API, in bytes; larger ones get a 413 and the connection is closed. */
  maxBodyBytes: number;
  /** `/metrics`: off (null), open (`{ token: null }`), or behind a bearer token. */
  metrics: { token: string | null } | null;
  /** Model providers' credentials, handed to the AI SDK providers. */
  providers: ModelProviders;
  /** The GitHub App, or token mode (a PAT), for `owner/repo` projects. */
  github: GitHubConfig;
}

/** GitHub settings: app credentials (APP_ID + key), the webhook, and the token of token mode. */
export interface GitHubConfig {
  appId: number | undefined;
  /** The app's private key in PEM, from PRIVATE_KEY (PEM, `\n`-escaped or base64) or PRIVATE_KEY_PATH. */
  privateKey: string | undefined;
  webhookSecret: string | undefined;
  /** A smee.io channel that forwards webhooks to this machine (development). */
  webhookProxyUrl: string | undefined;
  webhookPath: string;
  /** Token mode: a GitHub token used for every `owner/repo` project instead of an app installation. */
  token: string | undefined;
  /** Largest webhook delivery accepted, in bytes (GitHub's own cap is 25 MB). */
  webhookMaxBytes: number;
  /** NODE_ENV=production: no setup flow, credentials are required. */
  production: boolean;
  /**
   * Where GitHub is: github.com, or the Enterprise Server of GHE_HOST / GHE_PROTOCOL. The one
   * setting every API call and every link (comments, pull request bodies, `source.repository`) uses.
   */
  hosts: GitHubHosts;
  /** REDIS_URL, handed to Probot so replicas share one GitHub request throttle; unset: each alone. */
  redisUrl?: string | undefined;
}

/** Reads and validates the settings; `overrides` are command-line flags, which win over the environment. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Pick<Config, 'dataDir' | 'port' | 'host'>> = {},
): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid setting ${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const values = parsed.data;
  const port = overrides.port ?? values.PORT;
  return {
    dataDir: path.resolve(overrides.dataDir ?? values.DOCWRIGHT_DATA_DIR),
    port,
    host: overrides.host ?? values.HOST,
    model: values.DOCWRIGHT_MODEL,
    embeddingModel: absoluteModelFolder(values.DOCWRIGHT_EMBEDDING_MODEL),
    databaseUrl: values.DATABASE_URL,
    logLevel: values.LOG_LEVEL,
    ...(values.LOG_FORMAT ? { logFormat: values.LOG_FORMAT } : {}),
    workers: values.DOCWRIGHT_WORKERS,
    leaseMs: Math.round(values.DOCWRIGHT_LEASE_SECONDS * 1000),
    runTimeMs: Math.round(values.DOCWRIGHT_RUN_MINUTES * 60_000),
    answerIdleMs: Math.round(values.DOCWRIGHT_ANSWER_IDLE_SECONDS * 1000),
    jobRateLimit: values.DOCWRIGHT_JOB_RATE_LIMIT,
    jobBudget: {
      ...(values.DOCWRIGHT_MAX_TURNS === undefined ? {} : { maxTurns: values.DOCWRIGHT_MAX_TURNS }),
      ...(values.DOCWRIGHT_MAX_TOKENS === undefined ? {} : { maxTokens: values.DOCWRIGHT_MAX_TOKENS }),
      ...(values.DOCWRIGHT_MAX_COST === undefined ? {} : { maxCostUsd: values.DOCWRIGHT_MAX_COST }),
    },
    prices: prices(values.DOCWRIGHT_MODEL_PRICES),
    threadDays: values.DOCWRIGHT_THREAD_DAYS,
    publicUrl: (values.DOCWRIGHT_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    assistantLimits: {
      keyPerMonth: values.DOCWRIGHT_ASSISTANT_KEY_MONTHLY_LIMIT,
      projectPerHour: values.DOCWRIGHT_ASSISTANT_ORG_HOURLY_LIMIT,
      ipPerDay: values.DOCWRIGHT_ASSISTANT_IP_DAILY_LIMIT,
    },
    outputBudget: {
      maxFilesChanged: values.DOCWRIGHT_MAX_FILES_CHANGED,
      maxFileBytes: values.DOCWRIGHT_MAX_FILE_BYTES,
      maxTotalBytes: values.DOCWRIGHT_MAX_CHANGE_BYTES,
    },
    trustProxy: values.DOCWRIGHT_TRUST_PROXY === 'true' || values.DOCWRIGHT_TRUST_PROXY === '1',
    maxBodyBytes: values.DOCWRIGHT_MAX_BODY_BYTES,
    metrics: metricsConfig(values),
    providers: modelProvidersFrom(values),
    github: githubConfig(values),
  };
}

function prices(text: string | undefined): PriceTable {
  try {
    return parsePriceTable(text);
  } catch (error) {
    throw new ConfigError(`Invalid setting ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `local:./folder` as `local:/abs/folder`: the setting names the stored vectors, which must not
 * change meaning with the folder docwright is started from.
 */
function absoluteModelFolder(spec: string | undefined): string | undefined {
  const folder = /^local:(\.\.?(\/.*)?)$/.exec(spec ?? '')?.[1];
  return folder ? `local:${path.resolve(folder)}` : spec;
}

function githubConfig(values: z.infer<typeof EnvSchema>): GitHubConfig {
  const privateKey = readPrivateKey(values.PRIVATE_KEY, values.PRIVATE_KEY_PATH);
  const production = values.NODE_ENV === 'production';
  if (values.APP_ID !== undefined && !privateKey) {
    throw new ConfigError(
      'APP_ID is set but the private key is missing: set PRIVATE_KEY or PRIVATE_KEY_PATH',
    );
  }
  // Webhooks signed with a default secret would be forgeable; Probot's "development" default is not used.
  if (values.APP_ID !== undefined && !values.WEBHOOK_SECRET) {
    throw new ConfigError('APP_ID is set but WEBHOOK_SECRET is missing: set the secret of the app webhook');
  }
  return {
    appId: values.APP_ID,
    privateKey,
    webhookSecret: values.WEBHOOK_SECRET,
    webhookProxyUrl: values.WEBHOOK_PROXY_URL,
    webhookPath: values.WEBHOOK_PATH,
    webhookMaxBytes: values.DOCWRIGHT_WEBHOOK_MAX_BYTES,
    token: values.GITHUB_TOKEN,
    production,
    hosts: values.GHE_HOST ? enterpriseHosts(values.GHE_HOST, values.GHE_PROTOCOL) : GITHUB_COM,
    redisUrl: values.REDIS_URL,
  };
}

/** A token alone turns the endpoint on, behind it; DOCWRIGHT_METRICS=1 alone turns it on open. */
function metricsConfig(values: z.infer<typeof EnvSchema>): Config['metrics'] {
  if (values.DOCWRIGHT_METRICS_TOKEN) return { token: values.DOCWRIGHT_METRICS_TOKEN };
  const on = values.DOCWRIGHT_METRICS === 'true' || values.DOCWRIGHT_METRICS === '1';
  return on ? { token: null } : null;
}

/** Accepts what Probot accepts: a PEM, a PEM with `\n` escapes (one-line env files), base64, or a file. */
function readPrivateKey(value: string | undefined, file: string | undefined): string | undefined {
  let text = value;
  if (!text && file) {
    try {
      text = fs.readFileSync(path.resolve(file), 'utf8');
    } catch {
      throw new ConfigError(`PRIVATE_KEY_PATH: cannot read ${file}`);
    }
  }
  if (!text) return undefined;
  const unquoted = text.trim().replace(/^"|"$/g, '');
  if (unquoted.includes('-----BEGIN')) return `${unquoted.replace(/\\n/g, '\n').trim()}\n`;
  const decoded = Buffer.from(unquoted, 'base64').toString('utf8');
  if (decoded.includes('-----BEGIN')) return `${decoded.trim()}\n`;
  // Never echo the value: it is a secret.
  throw new ConfigError('PRIVATE_KEY is not a PEM private key (nor base64 of one)');
}
