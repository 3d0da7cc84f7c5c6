import { z } from 'zod';

/** Longest comment a reader may leave with a rating. */
const MAX_FEEDBACK_COMMENT = 2000;

/** `POST /discovery/v2/assistant/<domain>/feedback`: a reader's rating of one answer. */
export const FeedbackBodySchema = z
  .object(
    {
      threadId: z
        .string({
          error: (issue) =>
            issue.input === undefined ? 'threadId is required' : 'threadId must be a string',
        })
        .min(1, 'threadId must not be empty')
        .max(200, 'threadId is not a thread id'),
      messageId: z
        .string({
          error: (issue) =>
            issue.input === undefined ? 'messageId is required' : 'messageId must be a string',
        })
        .min(1, 'messageId must not be empty')
        .max(200, 'messageId is not a message id'),
      rating: z.enum(['up', 'down'], { error: 'rating must be "up" or "down"' }),
      comment: z
        .string({ error: 'comment must be a string' })
        .max(MAX_FEEDBACK_COMMENT, `comment must be at most ${MAX_FEEDBACK_COMMENT} characters`)
        .nullish(),
    },
    { error: 'the body must be a JSON object' },
  )
  .meta({ id: 'FeedbackBody' });

/** The rating as stored, the answer of the feedback endpoint. */
export const FeedbackSchema = z
  .object({
    threadId: z.string(),
    messageId: z.string(),
    rating: z.enum(['up', 'down']),
    comment: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Feedback' });
export type Feedback = z.infer<typeof FeedbackSchema>;

/** `?since=30d`: a number of days (`d`) or hours (`h`), up to a year. */
export const GapsQuerySchema = z.object({
  since: z
    .string()
    .regex(/^[1-9]\d{0,3}[dh]$/, 'since must be a number of days or hours, like 30d or 12h')
    .refine((since) => sinceMs(since) <= 366 * 86_400_000, 'since must be at most a year (366d)')
    .default('30d'),
});

/** `30d` or `12h` in milliseconds. */
export function sinceMs(since: string): number {
  const amount = Number(since.slice(0, -1));
  return amount * (since.endsWith('h') ? 3_600_000 : 86_400_000);
}

const PageSchema = z.object({ url: z.string(), title: z.string() });

/** One group of readers' questions about the same thing. */
export const GapSchema = z
  .object({
    id: z.string(),
    /** The question that stands for the group. */
    title: z.string(),
    count: z.number().int(),
    readers: z.number().int(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    /** How its questions went: declined, answered with little support, rated down. */
    declined: z.number().int(),
    lowSupport: z.number().int(),
    ratedDown: z.number().int(),
    examples: z.array(z.string()),
    closestPages: z.array(PageSchema),
    comments: z.array(z.string()),
  })
  .meta({ id: 'Gap' });
export type Gap = z.infer<typeof GapSchema>;

/** Reports that a page is wrong or lacking (the MCP server's `submit_feedback`), by page. */
export const PageReportSchema = z
  .object({
    path: z.string(),
    reports: z.number().int(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    /** The newest problems reported, up to five. */
    problems: z.array(z.string()),
  })
  .meta({ id: 'PageReport' });
export type PageReport = z.infer<typeof PageReportSchema>;

export const GapsReportSchema = z
  .object({
    project: z.string(),
    since: z.string(),
    /** Questions read: every exchange of the period. */
    questions: z.number().int(),
    gaps: z.array(GapSchema),
    /** Questions about something else than the docs' subject, grouped the same way. */
    offTopic: z.array(GapSchema),
    /** Agents' and readers' reports on pages, most reported first. */
    pageReports: z.array(PageReportSchema),
  })
  .meta({ id: 'GapsReport' });
export type GapsReport = z.infer<typeof GapsReportSchema>;

/** `POST /v2/agent/{projectId}/gaps/issue`: the project's "Docs gaps" issue on GitHub, refreshed. */
export const GapsIssueSchema = z
  .object({
    /** The issue's number in the project's repository. */
    issue: z.number().int(),
    /** Whether this refresh opened it (the first one does). */
    created: z.boolean(),
    /** Gaps of the report (the issue lists the first 25). */
    gaps: z.number().int(),
  })
  .meta({ id: 'GapsIssue' });
export type GapsIssue = z.infer<typeof GapsIssueSchema>;
