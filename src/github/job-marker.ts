/**
 * The hidden marker that ties a comment or a pull request body to a job: an HTML comment GitHub
 * does not display. The forge writes the same marker into the body of the pull requests it opens.
 */
export function jobMarker(jobId: string): string {
  return `<!-- docwright-job: ${jobId} -->`;
}

const MARKER = /<!-- docwright-job: ([\w.-]{1,100}) -->/g;

/**
 * The job id of the last marker in `text`, or null. The last one wins because ours is written at the
 * end of the body, after any text quoted from elsewhere.
 */
export function findJobMarker(text: string | null | undefined): string | null {
  if (!text) return null;
  let jobId: string | null = null;
  for (const match of text.matchAll(MARKER)) jobId = match[1] ?? null;
  return jobId;
}

/**
 * Makes text from elsewhere (the agent's reply, a failure reason) safe to place in a status comment:
 * HTML comments are shown as text, so quoted text can never plant a marker of its own.
 */
export function neutralizeMarkers(text: string): string {
  return text.replace(/<!--/g, '&lt;!--');
}
