import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DocwrightError, notFound } from '../core/errors.js';
import { FeedbackBodySchema, type Feedback } from '../protocol/feedback.js';
import type { FeedbackRow, ProjectRow, Store } from '../store/index.js';
import type { RateLimitHeaders } from './rate-limits.js';
import { readJson } from './request-body.js';

/** Largest feedback body: a rating with the longest comment, in any script, fits several times. */
const FEEDBACK_MAX_BYTES = 16 * 1024;

/** 413 for a feedback body larger than a rating with its comment can be. */
export const limitFeedbackBody = bodyLimit({
  maxSize: FEEDBACK_MAX_BYTES,
  onError: () => {
    throw new DocwrightError(
      'payload_too_large',
      `Feedback body is larger than ${FEEDBACK_MAX_BYTES} bytes`,
      {
        headers: { Connection: 'close' },
      },
    );
  },
});

/**
 * `POST /discovery/v2/assistant/<domain>/feedback`: a reader rates one answer of a thread of the
 * domain, up or down, with an optional comment; rating it again replaces the first rating.
 * `consume` counts the use against the assistant's limits once the body is known to be valid.
 */
export async function rateAnswer(
  c: Context,
  project: ProjectRow,
  store: Store,
  consume: () => Promise<RateLimitHeaders>,
): Promise<Response> {
  const body = await readJson(c, FeedbackBodySchema);
  const limits = await consume();
  const thread = await store.assistantThreads.get(body.threadId);
  if (!thread || thread.project_id !== project.id) throw notFound(`Thread ${body.threadId} not found`);
  const message = await store.feedback.message(thread.id, body.messageId);
  if (!message) throw notFound(`Message ${body.messageId} not found in thread ${thread.id}`);
  if (message.role !== 'assistant') {
    throw new DocwrightError(
      'invalid_request',
      `Message ${body.messageId} is the reader's question, not an answer: rate the assistant's reply`,
    );
  }
  const comment = body.comment?.trim() ? body.comment.trim() : null;
  const row = await store.feedback.rate({
    projectId: project.id,
    threadId: thread.id,
    messageId: body.messageId,
    rating: body.rating,
    comment,
    fp: thread.fp,
  });
  return c.json(feedbackOf(row), 200, limits);
}

function feedbackOf(row: FeedbackRow): Feedback {
  return {
    threadId: row.thread_id,
    messageId: row.message_id,
    rating: row.rating,
    comment: row.comment,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
