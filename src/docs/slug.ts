/**
 * Heading anchors the way GitHub (github-slugger) and Mintlify make them, so that a citation's
 * `#anchor` lands on the heading the rendered site generates.
 */

// Everything that is not a letter, mark, number, connector punctuation, space or hyphen goes.
const NOT_SLUG_CHARACTER = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/** The slug of one heading text, without de-duplication: `"What's new?"` -> `whats-new`. */
export function slugify(text: string): string {
  return text.toLowerCase().trim().replace(NOT_SLUG_CHARACTER, '').replace(/ /g, '-');
}

/**
 * Returns a function that slugs the headings of one page in order, suffixing repeats with `-1`,
 * `-2`, ... as GitHub does for two headings with the same text.
 */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = slugify(text);
    let slug = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(slug)) {
      count += 1;
      slug = `${base}-${count}`;
    }
    seen.set(base, count);
    seen.set(slug, 0);
    return slug;
  };
}
