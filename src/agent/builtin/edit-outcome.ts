/** What one applied (or refused) instruction reports back. */
export interface EditOutcome {
  /** Whether the overlay changed. A refused instruction changes nothing. */
  changed: boolean;
  /** Markdown for the requester: what was done, or exactly why nothing was. */
  reply: string;
  /** A one-line summary for the commit and PR title (only when something changed). */
  title?: string;
  /** Files the instruction would have changed that the write policy kept it from, with why. */
  skipped?: Array<{ file: string; reason: string }>;
}

/** An instruction that was understood but could not be applied: nothing changed, `reason` says why. */
export function refused(reason: string): EditOutcome {
  return { changed: false, reply: reason };
}

/** Longest list of files a reply spells out; the rest is counted, so replies stay readable. */
const LIST_LIMIT = 25;

/** A Markdown bullet list, cut after LIST_LIMIT items with a count of the rest. */
export function bulletList(items: string[]): string {
  const shown = items.slice(0, LIST_LIMIT).map((item) => `- ${item}`);
  if (items.length > LIST_LIMIT) shown.push(`- … and ${items.length - LIST_LIMIT} more`);
  return shown.join('\n');
}

/** `1 file`, `3 files`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
