/** What the form matchers share: the parsed shape of an instruction and small splitting helpers. */
import { PLACEHOLDER_SOURCE } from './quoted-text.js';
import type { Quoted } from './quoted-text.js';

/** An instruction ready for the form matchers. */
export interface InstructionParts {
  /** The first line, quotes replaced by placeholders, politeness and final period removed. */
  line: string;
  /** The following lines as typed (a page or section body), trimmed. */
  body: string;
  quotes: Quoted[];
}

/** Looks like a page path rather than prose: no spaces, and a folder, a leading `/` or an extension. */
export function isPathLike(text: string): boolean {
  return (
    /^\/?[\w.-]+(?:\/[\w.-]+)+$/.test(text) || /^\/[\w./-]*$/.test(text) || /^[\w./-]+\.mdx?$/i.test(text)
  );
}

/**
 * Splits `X <separator> Y` at the first separator that leaves a non-empty left side, trying the
 * separators in order of preference ("replace X with Y" prefers `with` over `to`).
 */
export function splitPair(text: string, separators: string[]): [string, string] | undefined {
  const quoted = new RegExp(
    `^(${PLACEHOLDER_SOURCE})\\s+(?:${separators.join('|')})\\s+(${PLACEHOLDER_SOURCE})$`,
    'i',
  );
  const both = quoted.exec(text);
  if (both) return [both[1] ?? '', both[2] ?? ''];
  for (const separator of separators) {
    const match = new RegExp(`\\s(?:${separator})\\s`, 'i').exec(text);
    if (match && match.index > 0)
      return [text.slice(0, match.index), text.slice(match.index + match[0].length)];
  }
  return undefined;
}
