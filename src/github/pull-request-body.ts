import { jobMarker, neutralizeMarkers } from './index.js';
import type { JobRow, Store } from '../store/index.js';

/** Longest request quoted in the description; the thread has all of it. */
const REQUEST_SHOWN = 2000;

/**
 * The description of a job's pull request: the agent's summary, the requests that led
 * to it, links back to the threads they were made in, and the hidden job marker last (the marker
 * that counts is the last one, so nothing quoted above can take its place).
 */
export function createPullRequestBody(
  store: Store,
  /** The web root of the configured GitHub (`config.github.hosts.webUrl`): links to the threads. */
  webUrl: string,
): (job: JobRow, reply: string) => Promise<string> {
  const root = webUrl.replace(/\/+$/, '');
  return async (job, reply) => {
    const [threads, messages] = await Promise.all([
      store.bot.threadsOfJob(job.id),
      store.jobs.messages(job.id),
    ]);
    const requests = messages.filter((message) => message.role === 'user').map((message) => message.content);
    const sections = [neutralizeMarkers(reply.trim()) || 'docwright made the requested docs changes.'];
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
    // The pull request's own conversation is where the reader already is.
    const elsewhere = threads.filter((thread) => thread.pr_number !== thread.issue_number);
    const links = elsewhere.map(
      (thread) =>
        `[${thread.repository}#${thread.issue_number}](${root}/${thread.repository}/${thread.is_pull_request ? 'pull' : 'issues'}/${thread.issue_number})`,
    );
    if (links.length > 0) sections.push(`Asked in ${links.join(', ')}.`);
    sections.push(`<sub>docwright job \`${job.id}\`</sub>\n${jobMarker(job.id)}`);
    return sections.join('\n\n');
  };
}
