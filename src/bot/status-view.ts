import { toJob } from '../engine/job-view.js';
import { finishedJobView, neutralizeMarkers, renderStatusComment, type StatusView } from '../github/index.js';
import { type ChangedFiles } from '../github-api/pull-request-files.js';
import { acceptsMessage, type JobMessageRow, type JobRow } from '../store/index.js';

/** What a status comment should show, and the key that says whether it already does. */
export interface StatusRendering {
  view: StatusView;
  /** `<state>:<last message id>`: changes exactly when the comment must be edited. */
  key: string;
  body: string;
}

/** Longest request quoted while working; the agent gets all of it. */
const REQUEST_SHOWN = 1200;

/**
 * The status of a job for its threads: working (quoting the request being worked on), PR opened,
 * no changes, failed. Null for an archived job: its comment keeps the last result it showed.
 * `files` is asked for only when the result is a pull request.
 */
export async function renderJobStatus(
  row: JobRow,
  messages: JobMessageRow[],
  files: () => Promise<ChangedFiles | null>,
): Promise<StatusRendering | null> {
  // An archived job's comment keeps what it last said: nothing more will happen to it.
  if (!acceptsMessage(row.status)) return null;
  const job = toJob(row, messages);
  const last = messages.at(-1);
  const userMessages = messages.filter((message) => message.role === 'user');
  let view: StatusView = finishedJobView(job);
  if (view.state === 'working') view = { ...view, followUp: userMessages.length > 1 };
  if (view.state === 'pr-opened') view = { ...view, files: await files() };
  let body = renderStatusComment(view);
  if (view.state === 'working') body = withRequest(body, userMessages.at(-1)?.content ?? '');
  return { view, key: `${view.state}:${last?.id ?? 0}`, body };
}

/** Places the request, quoted, under the first line ("Working on it…"). */
function withRequest(body: string, request: string): string {
  const text = request.trim();
  if (text === '') return body;
  const shown = text.length > REQUEST_SHOWN ? `${text.slice(0, REQUEST_SHOWN)}…` : text;
  const quote = neutralizeMarkers(shown)
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
  const newline = body.indexOf('\n');
  return newline === -1
    ? `${body}\n\n${quote}`
    : `${body.slice(0, newline)}\n\n${quote}${body.slice(newline)}`;
}
