/**
 * A docs sync request as a job's prompt: the code pull request (its link, title and description)
 * and its diff, in plain text a person can read in the job and a model can read as it is. The app,
 * the Action and the HTTP API write it the one way `formatSyncPrompt` does; both agents recognise
 * it with `parseSyncPrompt`.
 */
import { parseUnifiedDiff } from './parse-unified-diff.js';
import { diffFilePath } from './diff-types.js';
import { fileRole } from './file-roles.js';

/** The first line of every sync prompt, and what marks one. */
const SYNC_HEADING = 'Docs sync: bring the docs up to date with this code change.';

/** A job's prompt is at most this long (the API's limit on a prompt). */
const MAX_SYNC_PROMPT = 20_000;
/** The description is context; the diff is what the docs are checked against, so it gets the room. */
const MAX_DESCRIPTION = 2_000;

export interface SyncRequest {
  /** The code pull request's address, when there is one (GitHub's `html_url`). */
  htmlUrl?: string;
  title: string;
  body: string;
  /** A unified diff of the change. */
  diff: string;
  /** Files of the diff left out to keep the prompt within its limit. */
  omitted?: string[];
}

/**
 * The prompt of a sync job. A diff too long for the prompt keeps its code files first, then the
 * tests (which say a name is used from outside), and leaves out the rest, whole files at a time
 * and then hunks, naming what it left out.
 */
export function formatSyncPrompt(request: SyncRequest, limit = MAX_SYNC_PROMPT): string {
  const body = request.body.trim();
  const description = body.length > MAX_DESCRIPTION ? `${body.slice(0, MAX_DESCRIPTION)}…` : body;
  const head = [
    SYNC_HEADING,
    '',
    ...(request.htmlUrl ? [`Code pull request: ${request.htmlUrl}`] : []),
    `Title: ${oneLine(request.title)}`,
    '',
    'Description:',
    description === '' ? '(none)' : description,
    '',
  ].join('\n');
  // Room for the diff, less what the note of omitted files may take.
  const room = limit - head.length - '\nDiff:\n'.length - 400;
  const { diff, omitted } = boundDiff(request.diff, room);
  const note = omitted.length === 0 ? '' : `Left out of the diff (too long): ${listed(omitted)}\n`;
  return `${head}${note}\nDiff:\n${diff}`.slice(0, limit);
}

/** The request in a prompt `formatSyncPrompt` wrote, or null for any other prompt. */
export function parseSyncPrompt(prompt: string): SyncRequest | null {
  const text = prompt.replace(/\r\n?/g, '\n');
  if (!text.startsWith(`${SYNC_HEADING}\n`)) return null;
  // A unified diff has no line "Diff:" (its lines start with a space, + - @ \ or a header word).
  const split = text.lastIndexOf('\nDiff:\n');
  if (split === -1) return null;
  const head = text.slice(SYNC_HEADING.length + 1, split);
  const link = /^Code pull request: (\S+)$/m.exec(head)?.[1];
  const title = /^Title: (.*)$/m.exec(head)?.[1] ?? '';
  const descriptionAt = head.indexOf('\nDescription:\n');
  let body = descriptionAt === -1 ? '' : head.slice(descriptionAt + '\nDescription:\n'.length);
  body = body.replace(/\nLeft out of the diff \(too long\): .*\n?$/, '').trim();
  const request: SyncRequest = { title, body: body === '(none)' ? '' : body, diff: text.slice(split + 7) };
  if (link) request.htmlUrl = link;
  return request;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function listed(files: string[]): string {
  const shown = files.slice(0, 10).join(', ');
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
}

/** Priority of a file's section in a bounded diff: code, then tests, then nothing else. */
function priority(section: string): number {
  const [file] = parseUnifiedDiff(section).files;
  if (!file) return 2;
  const role = fileRole(file);
  return role === 'code' ? 0 : role === 'test' ? 1 : 2;
}

/** The diff cut to `room` characters, whole file sections first, by priority, then hunks. */
function boundDiff(diff: string, room: number): { diff: string; omitted: string[] } {
  if (diff.length <= room) return { diff, omitted: [] };
  const sections = diff.split(/(?=^diff --git )/m).filter((section) => section.trim() !== '');
  const ranked = sections
    .map((section, index) => ({ section, index, priority: priority(section) }))
    .sort((a, b) => a.priority - b.priority || a.index - b.index);
  const kept: { index: number; text: string }[] = [];
  const omitted: string[] = [];
  let left = room;
  for (const { section, index, priority: rank } of ranked) {
    const name = sectionPath(section);
    if (rank === 2) {
      omitted.push(name);
      continue;
    }
    const text = section.length <= left ? section : firstHunks(section, left);
    if (text === '') omitted.push(name);
    else {
      kept.push({ index, text });
      left -= text.length;
      if (text !== section) omitted.push(`part of ${name}`);
    }
  }
  kept.sort((a, b) => a.index - b.index);
  return { diff: kept.map((item) => item.text).join(''), omitted };
}

/**
 * A file section's header and as many of its hunks as fit in `room`, the last one cut at a line
 * (a hunk shorter than its header says is read as far as it goes); '' when not even a line fits.
 */
function firstHunks(section: string, room: number): string {
  const [header = '', ...hunks] = section.split(/(?=^@@ )/m);
  let text = header;
  for (const hunk of hunks) {
    if (text.length + hunk.length <= room) {
      text += hunk;
      continue;
    }
    const lines = hunk.split(/(?<=\n)/);
    let cut = '';
    for (const line of lines) {
      if (text.length + cut.length + line.length > room) break;
      cut += line;
    }
    if (cut.split('\n').length > 2) text += cut;
    break;
  }
  return text === header ? '' : text;
}

function sectionPath(section: string): string {
  const [file] = parseUnifiedDiff(section).files;
  return file ? diffFilePath(file) : section.split('\n')[0]!;
}
