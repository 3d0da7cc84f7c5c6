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

/** What a description written by `renderPullRequestBody` tells of the job's conversation. */
export interface PullRequestConversation {
  /** The requests quoted under **Requested:**, oldest first (a long one shortened as it was shown). */
  requests: string[];
  /** The threads linked as "Asked in". */
  threads: RequestThread[];
}

/**
 * Reads back what `renderPullRequestBody` wrote: where nothing is kept between runs (the Action in a
 * runner), the description is the job's memory of what was asked and where. Text in any other
 * shape gives nothing rather than a guess.
 */
export function readPullRequestBody(body: string, webUrl: string): PullRequestConversation {
  const requests: string[] = [];
  const section = /\*\*Requested:\*\*\n\n((?:>.*(?:\n|$))+)/.exec(body)?.[1];
  if (section) {
    const text = section
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.replace(/^> ?/, ''))
      .join('\n');
    // Several requests are numbered and parted by an empty quoted line; one is quoted as it is.
    if (text.startsWith('1. ') && text.includes('\n\n2. ')) {
      let rest = text.slice(3);
      for (let next = 2; ; next += 1) {
        const cut = rest.indexOf(`\n\n${next}. `);
        if (cut === -1) break;
        requests.push(rest.slice(0, cut));
        rest = rest.slice(cut + `\n\n${next}. `.length);
      }
      requests.push(rest);
    } else requests.push(text);
  }
  const root = webUrl.replace(/\/+$/, '');
  const threads: RequestThread[] = [];
  const asked = /^Asked in (.+)\.$/m.exec(body)?.[1] ?? '';
  for (const match of asked.matchAll(/\[([^\]#]+)#(\d+)\]\(([^)]+)\)/g)) {
    const [, repository = '', number = '', url = ''] = match;
    if (!url.startsWith(`${root}/${repository}/`)) continue;
    threads.push({ repository, number: Number(number), isPullRequest: url.includes('/pull/') });
  }
  return { requests: requests.filter((request) => request.trim() !== ''), threads };
}
