import { jobMarker, neutralizeMarkers } from './job-marker.js';

/** Longest request quoted in the description; the thread has all of it. */
const REQUEST_SHOWN = 2000;

/** A conversation a job was asked in, to link back to. */
interface RequestThread {
  /** `owner/repo` as GitHub spells it. */
  repository: string;
  number: number;
  isPullRequest: boolean;
}

export interface PullRequestBodyInput {
  jobId: string;
  /** The agent's summary of the change. */
  reply: string;
  /** The requests that led to the change, oldest first. */
  requests: readonly string[];
  /** Where they were asked; the pull request's own conversation is left out by the caller. */
  threads: readonly RequestThread[];
  /** The web root of the GitHub the threads are on: `https://github.com`, an Enterprise host. */
  webUrl: string;
}

/**
 * The description of a job's pull request: the agent's summary, the requests that led
 * to it, links back to the threads they were made in, and the hidden job marker last (the marker
 * that counts is the last one, so nothing quoted above can take its place).
 */
export function renderPullRequestBody(input: PullRequestBodyInput): string {
  const root = input.webUrl.replace(/\/+$/, '');
  const { requests } = input;
  const sections = [neutralizeMarkers(input.reply.trim()) || 'docwright made the requested docs changes.'];
  if (requests.length > 0) {
    const quoted = requests.map((request, index) => {
      const text = request.trim();
      const shown = text.length > REQUEST_SHOWN ? `${text.slice(0, REQUEST_SHOWN)}…` : text;
      const label = requests.length > 1 ? `${index + 1}. ` : '';
      return neutralizeMarkers(`${label}${shown}`)
        .split('\n')
        .map((line) => `> ${line}`.trimEnd())
        .join('\n');
    });
    sections.push(`**Requested:**\n\n${quoted.join('\n>\n')}`);
  }
  const links = input.threads.map(
    (thread) =>
      `[${thread.repository}#${thread.number}](${root}/${thread.repository}/${thread.isPullRequest ? 'pull' : 'issues'}/${thread.number})`,
  );
  if (links.length > 0) sections.push(`Asked in ${links.join(', ')}.`);
  sections.push(`<sub>docwright job \`${input.jobId}\`</sub>\n${jobMarker(input.jobId)}`);
  return sections.join('\n\n');
}
