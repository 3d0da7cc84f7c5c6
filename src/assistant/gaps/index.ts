import { sinceMs, type GapsReport } from '../../protocol/feedback.js';
import type { Store } from '../../store/index.js';
import { gapPrompt } from './gap-prompt.js';
import { findGap, gapsReport, type GapQuestions } from './gaps-report.js';

/** The gaps report of a project over the last `since` (`30d`, `12h`). */
export async function readGaps(
  store: Store,
  projectId: string,
  since: string,
  now = new Date(),
): Promise<GapsReport> {
  const after = sinceDate(since, now);
  const [exchanges, reports] = await Promise.all([
    store.feedback.exchanges(projectId, after),
    store.pageFeedback.since(projectId, after),
  ]);
  return gapsReport(exchanges, { project: projectId, since, pageFeedback: reports });
}

/** One gap of the report with all its questions, and the prompt of a job that fills it; undefined when no gap has the id. */
export async function readGap(
  store: Store,
  projectId: string,
  gapId: string,
  since: string,
  now = new Date(),
): Promise<(GapQuestions & { prompt: string }) | undefined> {
  const found = findGap(await store.feedback.exchanges(projectId, sinceDate(since, now)), gapId);
  return found && { ...found, prompt: gapPrompt(found.gap, found.questions) };
}

function sinceDate(since: string, now: Date): string {
  return new Date(now.getTime() - sinceMs(since)).toISOString();
}
