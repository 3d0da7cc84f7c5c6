import { z } from 'zod';

/** `{ prompt }`: at least 1 character, as the contract says, and at most 20,000, so one request cannot fill a run. */
export const PromptBodySchema = z
  .object(
    {
      prompt: z
        .string({
          error: (issue) => (issue.input === undefined ? 'prompt is required' : 'prompt must be a string'),
        })
        .min(1, 'prompt must not be empty')
        .max(20_000, 'prompt must be at most 20,000 characters')
        // Spaces and new lines alone ask for nothing: refused as an empty prompt is.
        .refine((prompt) => prompt.trim() !== '', 'prompt must not be blank'),
    },
    { error: 'the body must be a JSON object' },
  )
  .meta({ id: 'PromptBody' });

/** The limits of a job (per run, repairs included): each optional, unset means the server's default. */
export const BudgetSchema = z
  .object(
    {
      max_turns: z
        .number({ error: 'budget.max_turns must be a number' })
        .int('budget.max_turns must be a whole number')
        .min(1, 'budget.max_turns must be at least 1')
        .max(1000, 'budget.max_turns must be at most 1,000')
        .optional()
        .describe('Model calls in one run, repairs included.'),
      max_tokens: z
        .number({ error: 'budget.max_tokens must be a number' })
        .int('budget.max_tokens must be a whole number')
        .min(1, 'budget.max_tokens must be at least 1')
        .optional()
        .describe('Input plus output tokens in one run.'),
      max_cost: z
        .number({ error: 'budget.max_cost must be a number' })
        .positive('budget.max_cost must be more than 0')
        .optional()
        .describe(
          "Estimated US dollars in one run; needs a price for the job's model (DOCWRIGHT_MODEL_PRICES).",
        ),
    },
    // Only a budget that is not an object gets this sentence; an unknown key keeps zod's, which names it.
    { error: (issue) => (issue.code === 'invalid_type' ? 'budget must be an object' : undefined) },
  )
  .strict()
  .meta({ id: 'Budget' });
export type BudgetBody = z.infer<typeof BudgetSchema>;

/** `{ prompt, budget? }`: the contract's prompt body, and the limits of the new job. */
export const CreateJobBodySchema = PromptBodySchema.extend({
  budget: BudgetSchema.optional().describe(
    "Limits of this job's runs; a run that reaches one stops, commits nothing and fails with the limit named.",
  ),
}).meta({ id: 'CreateJobBody' });

/** What a run or a job spent. */
export const UsageSchema = z
  .object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    modelCalls: z.number().int(),
    toolCalls: z.number().int(),
    wallMs: z.number().int(),
    costUsd: z
      .number()
      .nullable()
      .describe(
        "Estimated from the operator's price for the model (DOCWRIGHT_MODEL_PRICES); null without one.",
      ),
  })
  .meta({ id: 'Usage' });

/** The four states a job can be in, declared once for the wire, the store and the metrics. */
export const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** The states a job does not leave by itself: clients poll until the job reaches one. */
const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['completed', 'archived', 'failed']);

/** Whether a job is done as far as a client polling it is concerned. */
export function isFinal(status: JobStatus): boolean {
  return FINAL_STATUSES.has(status);
}

export const JobMessageSchema = z
  .object({
    role: z.enum(['user', 'agent']),
    content: z.string(),
    createdAt: z.iso.datetime(),
    changed: z
      .boolean()
      .optional()
      .describe("On the agent's replies: whether the run behind the reply committed a change."),
    usage: UsageSchema.optional().describe("On the agent's replies: what the run behind the reply spent."),
  })
  .meta({ id: 'JobMessage' });
export type JobMessage = z.infer<typeof JobMessageSchema>;

/** The contract's job fields, plus our extra fields (`updatedAt`, `error`, `messages`, `reply`, `changed`). */
export const JobSchema = z
  .object({
    id: z.string(),
    status: JobStatusSchema,
    source: z.object({
      repository: z.string().describe('Repository of the job (its URL).'),
      ref: z.string().describe('The branch the agent works on.'),
    }),
    model: z.string(),
    prLink: z.url().nullable(),
    createdAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
    updatedAt: z.iso.datetime().optional(),
    error: z.string().nullable().optional().describe('Why the job failed, in words.'),
    messages: z
      .array(JobMessageSchema)
      .optional()
      .describe('The prompts and the agent replies, oldest first.'),
    reply: z
      .string()
      .nullable()
      .optional()
      .describe("The agent's reply to the latest prompt; null while it works on it."),
    changed: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'Whether the run that answered the latest prompt committed a change; null while the job is active. A completed job that changed nothing says why in `reply`.',
      ),
    usage: UsageSchema.optional().describe(
      'What all runs of the job spent so far, failed and retried attempts included; absent before the first run ends.',
    ),
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof JobSchema>;

export const JobListSchema = z
  .object({
    jobs: z.array(JobSchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` to get the next (older) page.'),
  })
  .meta({ id: 'JobList' });
export type JobList = z.infer<typeof JobListSchema>;

export const JobListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(20),
  cursor: z.string().max(200, 'cursor is not valid').optional(),
  status: JobStatusSchema.optional(),
});
export type JobListQuery = z.infer<typeof JobListQuerySchema>;
