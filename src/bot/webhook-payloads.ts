import { z } from 'zod';
import { formatZodError } from '../protocol/format-zod-error.js';

/**
 * The fields of each event the app's handlers read, checked before a handler runs: a correctly
 * signed delivery can still be malformed (a hand-made test delivery, a proxy that rewrote it), and
 * a handler reading `comment.body` of `null` would fail with an internal message instead of a 400.
 * Only what the handlers use is required; everything else GitHub sends passes through untouched.
 */
const account = z.object({ login: z.string() });
const repository = z.object({
  name: z.string(),
  full_name: z.string(),
  owner: account,
  default_branch: z.string().optional(),
});
const installation = z.object({ id: z.number() });
const repositories = z.array(z.object({ full_name: z.string() }));

const EVENT_SCHEMAS: Record<string, z.ZodType> = {
  issue_comment: z.object({
    action: z.string(),
    repository,
    issue: z.object({ number: z.number(), body: z.string().nullish() }),
    comment: z.object({ id: z.number(), body: z.string(), author_association: z.string() }),
  }),
  pull_request_review_comment: z.object({
    action: z.string(),
    repository,
    pull_request: z.object({ number: z.number(), html_url: z.string(), head: z.object({ ref: z.string() }) }),
    comment: z.object({ id: z.number(), body: z.string(), path: z.string(), author_association: z.string() }),
  }),
  pull_request: z.object({
    action: z.string(),
    repository,
    pull_request: z.object({
      number: z.number(),
      html_url: z.string(),
      body: z.string().nullish(),
      head: z.object({ ref: z.string() }),
    }),
  }),
  push: z.object({ ref: z.string(), repository: repository.pick({ full_name: true, default_branch: true }) }),
  installation: z.object({ action: z.string(), installation, repositories: repositories.optional() }),
  installation_repositories: z.object({
    action: z.string(),
    installation,
    repositories_added: repositories,
    repositories_removed: repositories,
  }),
};

const ANY_EVENT = z.object({}, { error: 'the payload must be a JSON object' });

/** Null when the payload has what the handlers of `event` read; otherwise a sentence naming the field. */
export function malformedPayload(event: string, payload: unknown): string | null {
  const base = ANY_EVENT.safeParse(payload);
  const parsed = base.success ? (EVENT_SCHEMAS[event]?.safeParse(payload) ?? base) : base;
  if (parsed.success) return null;
  return formatZodError(parsed.error, 'payload').replace(
    /^Invalid request payload/,
    `The ${event} delivery is malformed`,
  );
}
