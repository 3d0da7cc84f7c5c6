import type { SearchHit } from '../../docs/index.js';
import type { ConversationTurn } from '../../protocol/assistant.js';

/** A cited source of an answer, as the streams send it (v2 `source-url`, v1 `h:`). */
export interface AnswerSource {
  sourceId: string;
  url: string;
  title: string;
}

export interface AnswerInput {
  /** The conversation so far; the last turn is the reader's question. */
  conversation: ConversationTurn[];
  /** The text the docs were searched with (question plus what resolves its references). */
  query: string;
  /** Retrieved sections, best first. */
  passages: SearchHit[];
  /** Whether a retrieved page holds two neighbouring words of the query side by side. */
  holdsPhrase: () => boolean;
  /** Whether the question leans on the conversation before it (see `Retrieval.followUp`). */
  followUp: boolean;
  signal: AbortSignal;
}

export interface Answer {
  /** The sources the answer cites, known before its text starts. */
  sources: AnswerSource[];
  /** The answer's text, in small deltas. */
  text: AsyncIterable<string>;
}

/** Composes an answer from retrieved passages: extractive offline, or a model through the AI SDK. */
export interface Answerer {
  readonly name: string;
  answer(input: AnswerInput): Answer;
}

/**
 * The sources of a list of passages: one per page, numbered in order, linking the page's first
 * (best) passage. A page's second section is the same citation, so a reader sees distinct pages.
 */
export function sourcesOf(passages: SearchHit[]): AnswerSource[] {
  const seen = new Set<string>();
  const sources: AnswerSource[] = [];
  for (const passage of passages) {
    if (seen.has(passage.urlPath)) continue;
    seen.add(passage.urlPath);
    const title =
      passage.heading && passage.heading !== passage.pageTitle
        ? `${passage.pageTitle} — ${passage.heading}`
        : passage.pageTitle;
    sources.push({ sourceId: `source-${sources.length + 1}`, url: passage.url, title });
  }
  return sources;
}

/** The number (1-based) of the source that cites `passage`'s page. */
export function sourceNumber(sources: AnswerSource[], passage: SearchHit): number {
  const page = passage.url.replace(/#.*$/, '');
  return sources.findIndex((source) => source.url.replace(/#.*$/, '') === page) + 1;
}

/**
 * Splits text into deltas of one line each, keeping every character. An extractive answer is whole
 * before it streams and its deltas leave together, so smaller pieces would only be more events to
 * encode and parse (word-sized ones cost a tenth of the server's time per answer).
 */
export function* lineDeltas(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end + 1;
    yield text.slice(start, stop);
    start = stop;
  }
}
