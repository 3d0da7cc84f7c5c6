import { queryTerms } from './fts-query.js';

/** One turn of a conversation, reduced to its text. */
interface RetrievalMessage {
  role: string;
  text: string;
}

export interface RetrievalQueryInput {
  messages: readonly RetrievalMessage[];
  /** The request's `context` items (code snippets, selected text). */
  context?: readonly { value: string }[] | null;
  /**
   * Whether the last message leans on the user turns before it; judged from its words
   * (`isFollowUp`) when not given.
   */
  followUp?: boolean;
}

/** A last message with fewer searchable words than this cannot stand on its own. */
const SELF_CONTAINED_TERMS = 4;
/** Earlier user turns looked at, newest first, to resolve a follow-up. */
const MAX_EARLIER_TURNS = 2;
/** Characters taken from each earlier turn and from all context values together. */
const MAX_EARLIER_TURN_CHARACTERS = 300;
const MAX_CONTEXT_CHARACTERS = 600;

/** Words that point back at something said before ("how do I configure it?"). */
const REFERENCE =
  /\b(it|its|it's|this|that|these|those|they|them|their|there|same|above|previous|former|latter)\b/i;
/** Words that add to what was asked before ("can the bot call people too?", "does it still work"). */
const ADDITION = /\b(also|too|as well|instead|either|anymore|still|otherwise)\b/i;
/** Openings of a message that continues the previous one ("and for GitLab?", "what about tabs"). */
const CONTINUATION = /^\s*(and|also|or|but|so|then|what about|how about|same for|ok|okay)\b/i;

/**
 * The text to search the docs with for a conversation: the last user
 * message, then — when it is a follow-up that leans on earlier turns — the previous user turn(s),
 * then the `context` values. The order matters: the query builder keeps the first words when it
 * has to cut, so the reader's own question always survives.
 */
export function buildRetrievalQuery(input: RetrievalQueryInput): string {
  const userTurns = input.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.text.trim())
    .filter((text) => text !== '');
  const last = userTurns.pop() ?? '';
  const parts = [last];
  if (input.followUp ?? isFollowUp(last)) {
    let terms = queryTerms(last).length;
    for (const earlier of userTurns.reverse().slice(0, MAX_EARLIER_TURNS)) {
      parts.push(earlier.slice(0, MAX_EARLIER_TURN_CHARACTERS));
      terms += queryTerms(earlier).length;
      if (terms >= SELF_CONTAINED_TERMS) break;
    }
  }
  const context = (input.context ?? [])
    .map((item) => item.value.trim())
    .filter((value) => value !== '')
    .join('\n')
    .slice(0, MAX_CONTEXT_CHARACTERS);
  if (context !== '') parts.push(context);
  return parts.filter((part) => part !== '').join('\n');
}

/** Whether a message leans on the conversation before it to say what it is about. */
export function isFollowUp(message: string): boolean {
  const terms = queryTerms(message).length;
  if (terms < SELF_CONTAINED_TERMS - 1) return true;
  return terms < SELF_CONTAINED_TERMS + 2 && pointsBack(message);
}

/**
 * Whether a message has at most three words of its own and points back at what was said ("how
 * long does it take to verify?", "and for GitLab?"): it means nothing without the thread.
 */
export function pointsOnlyBack(message: string): boolean {
  return queryTerms(message).length < SELF_CONTAINED_TERMS && pointsBack(message);
}

/** Whether a message has a word that points back or adds to what was said ("it", "also", "and for"). */
export function pointsBack(message: string): boolean {
  return REFERENCE.test(message) || CONTINUATION.test(message) || ADDITION.test(message);
}
