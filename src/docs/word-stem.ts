/**
 * A crude English stem (plural, -ing, -ed, -ly): enough to match "domains" with "domain" or
 * "switching" with "switch" when comparing words outside the full-text index, which has its own
 * (porter) stemmer.
 */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 4) return lower;
  for (const suffix of ['ing', 'ies', 'ed', 'es', 'ly', 's']) {
    if (lower.endsWith(suffix) && lower.length - suffix.length >= 3) {
      return suffix === 'ies' ? `${lower.slice(0, -3)}y` : lower.slice(0, -suffix.length);
    }
  }
  return lower;
}
