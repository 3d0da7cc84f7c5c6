import type { Gap, GapsReport, PageReport } from '../../protocol/feedback.js';
import type { Exchange } from '../../store/index.js';
import {
  groupId,
  groupQuestions,
  representative,
  topKeys,
  unknownShare,
  type GroupedQuestion,
} from './question-groups.js';

/** An exchange as the report reads it: the question, the reply's record, its rating. */
export type RatedExchange = Exchange & { rating: 'up' | 'down' | null; comment: string | null };

/**
 * Below this support (the share of the question the best page held) an answer stands on little:
 * the answerer's bar is 0.36, and answers between it and this quote a page that holds half the
 * question at best.
 */
const LOW_SUPPORT = 0.45;
/**
 * A declined question whose closest page holds less than this of it is about something else than
 * the docs' subject: no page is close at all.
 */
const OFF_TOPIC_SUPPORT = 0.2;
/**
 * Below this support, an answer to a question with a word no page holds ("migrate a Confluence
 * space") stands on little too: it answered the words around the thing asked about.
 */
const UNKNOWN_WORD_SUPPORT = 0.75;
/** Below this support, a declined question no page names in its title or headings is off-topic too. */
const OFF_TOPIC_UNNAMED_SUPPORT = 0.5;
/**
 * A group of declined questions at least this share of whose words the docs never use is
 * off-topic, whatever page the search found: on a large site some page holds a word of almost any
 * question ("capital" in a heading on capitalization, "train" in one on training a model).
 */
const OFF_TOPIC_UNKNOWN_SHARE = 0.5;

const EXAMPLES = 3;
const CLOSEST_PAGES = 3;
const COMMENTS = 10;

type Reason = 'declined' | 'lowSupport' | 'ratedDown';
interface Member {
  exchange: RatedExchange;
  reasons: Reason[];
}

/** A gap of the report with every distinct question of it (the report shows three). */
export interface GapQuestions {
  gap: Gap;
  questions: string[];
}

/**
 * The gaps report: the questions readers were not served on (declined, answered with little
 * support, or rated down; never one a reader rated up), grouped by what they ask about, the
 * groups ranked by distinct readers then questions; off-topic questions apart.
 */
export function gapsReport(
  exchanges: readonly RatedExchange[],
  options: {
    project: string;
    since: string;
    pageFeedback?: readonly { page_path: string; problem: string; created_at: string }[];
  },
): GapsReport {
  const { gaps, offTopic } = groupedExchanges(exchanges);
  return {
    project: options.project,
    since: options.since,
    questions: exchanges.length,
    gaps: gaps.map((group) => group.gap),
    offTopic: offTopic.map((group) => group.gap),
    pageReports: pageReports(options.pageFeedback ?? []),
  };
}

/** Problems kept per page in the report: the newest. */
const PROBLEMS_SHOWN = 5;

/**
 * Reports on pages (an agent's or a reader's `submit_feedback`) by page, most reported first, then
 * most recent: a page many call wrong is a gap as surely as a question the docs decline.
 */
function pageReports(
  rows: readonly { page_path: string; problem: string; created_at: string }[],
): PageReport[] {
  const byPage = new Map<string, { page_path: string; problem: string; created_at: string }[]>();
  for (const row of rows) byPage.set(row.page_path, [...(byPage.get(row.page_path) ?? []), row]);
  return [...byPage]
    .map(([path, reports]) => {
      const times = reports.map((report) => report.created_at).sort();
      const newest = [...reports].sort((a, b) => b.created_at.localeCompare(a.created_at));
      return {
        path,
        reports: reports.length,
        firstSeen: times[0]!,
        lastSeen: times.at(-1)!,
        problems: newest.slice(0, PROBLEMS_SHOWN).map((report) => report.problem),
      };
    })
    .sort(
      (a, b) => b.reports - a.reports || b.lastSeen.localeCompare(a.lastSeen) || a.path.localeCompare(b.path),
    );
}

/** The gap (not an off-topic group) of id `id` among `exchanges`, or undefined. */
export function findGap(exchanges: readonly RatedExchange[], id: string): GapQuestions | undefined {
  return groupedExchanges(exchanges).gaps.find((group) => group.gap.id === id);
}

/**
 * The unserved exchanges grouped; a group is off-topic when each of its questions is. A question
 * about a thing the docs never name, asked in few words ("is GitLab supported?"), joins the
 * questions about it that came closer to the docs, and is a gap with them.
 */
function groupedExchanges(exchanges: readonly RatedExchange[]): {
  gaps: GapQuestions[];
  offTopic: GapQuestions[];
} {
  const unserved: Member[] = [];
  for (const exchange of exchanges) {
    const reasons = reasonsOf(exchange);
    if (reasons.length > 0) unserved.push({ exchange, reasons });
  }
  const gaps: GapQuestions[] = [];
  const offTopic: GapQuestions[] = [];
  for (const group of grouped(unserved)) {
    const target = isOffTopicGroup(group.members) ? offTopic : gaps;
    target.push({ gap: group.gap, questions: group.questions });
  }
  return { gaps, offTopic };
}

function reasonsOf(exchange: RatedExchange): Reason[] {
  // A reader who said the answer helped was served, whatever the numbers say.
  if (exchange.rating === 'up') return [];
  const reasons: Reason[] = [];
  if (exchange.outcome === 'declined') reasons.push('declined');
  else if (
    exchange.support < LOW_SUPPORT ||
    (exchange.unknownWords.length > 0 && exchange.support < UNKNOWN_WORD_SUPPORT)
  )
    reasons.push('lowSupport');
  if (exchange.rating === 'down') reasons.push('ratedDown');
  return reasons;
}

/**
 * A group is off-topic when the assistant declined each of its questions and either no page came
 * close to any of them, or the docs never use at least half of the words they are asked in.
 */
function isOffTopicGroup(members: readonly Member[]): boolean {
  const exchanges = members.map((member) => member.exchange);
  if (!exchanges.every((exchange) => exchange.outcome === 'declined' && exchange.rating !== 'down'))
    return false;
  return (
    exchanges.every(isOffTopic) || unknownShare(exchanges.map(groupedQuestion)) >= OFF_TOPIC_UNKNOWN_SHARE
  );
}

/**
 * The assistant declined and no page of the site came close: none was found, or what was found
 * holds little of the question and names none of it in its title or headings (a page that says
 * "time" in passing, for "what time is it in Tokyo?").
 */
function isOffTopic(exchange: RatedExchange): boolean {
  return (
    exchange.outcome === 'declined' &&
    exchange.rating !== 'down' &&
    (exchange.closest.length === 0 ||
      exchange.support < OFF_TOPIC_SUPPORT ||
      (exchange.about === 0 && exchange.support < OFF_TOPIC_UNNAMED_SUPPORT))
  );
}

function groupedQuestion(exchange: RatedExchange): GroupedQuestion {
  return {
    text: exchange.question,
    pages: exchange.closest.map((page) => page.url),
    unknownWords: exchange.unknownWords,
  };
}

function grouped(items: readonly Member[]): (GapQuestions & { members: Member[] })[] {
  return groupQuestions(items.map(({ exchange }) => groupedQuestion(exchange)))
    .map((indexes) => {
      const members = indexes.map((index) => items[index]!);
      return { ...gapOf(members), members };
    })
    .sort(
      ({ gap: a }, { gap: b }) =>
        b.readers - a.readers ||
        b.count - a.count ||
        (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0) ||
        (a.id < b.id ? -1 : 1),
    );
}

function gapOf(members: readonly Member[]): GapQuestions {
  const exchanges = members.map((member) => member.exchange);
  const times = exchanges.map((exchange) => exchange.createdAt).sort();
  const distinct = distinctTexts(exchanges.map((exchange) => exchange.question));
  const first = representative(distinct);
  const title = distinct[first]!;
  const questions = [title, ...distinct.filter((_, index) => index !== first)];
  const titles = new Map<string, string>();
  const pageCounts = new Map<string, number>();
  for (const exchange of exchanges) {
    for (const page of exchange.closest) {
      titles.set(page.url, page.title);
      pageCounts.set(page.url, (pageCounts.get(page.url) ?? 0) + 1);
    }
  }
  const count = (reason: Reason) => members.filter((member) => member.reasons.includes(reason)).length;
  const gap: Gap = {
    id: groupId(exchanges.map(groupedQuestion)),
    title,
    count: exchanges.length,
    readers: new Set(exchanges.map(readerOf)).size,
    firstSeen: times[0]!,
    lastSeen: times.at(-1)!,
    declined: count('declined'),
    lowSupport: count('lowSupport'),
    ratedDown: count('ratedDown'),
    examples: questions.slice(0, EXAMPLES),
    closestPages: topKeys(pageCounts, CLOSEST_PAGES).map((url) => ({ url, title: titles.get(url)! })),
    comments: distinctTexts(
      exchanges.flatMap((exchange) => (exchange.comment ? [exchange.comment] : [])),
    ).slice(0, COMMENTS),
  };
  return { gap, questions };
}

/**
 * Who asked: the reader's `fp`; an anonymous reader is told apart by thread, since nothing else
 * says whether two anonymous threads are one person.
 */
function readerOf(exchange: RatedExchange): string {
  return exchange.fp === 'anonymous' ? `thread ${exchange.threadId}` : `fp ${exchange.fp}`;
}

/** Texts once each (compared without case and spacing), in the order they came. */
function distinctTexts(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const distinct: string[] = [];
  for (const text of texts) {
    const key = text.toLowerCase().replace(/\s+/g, ' ').trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    distinct.push(text.trim());
  }
  return distinct;
}
