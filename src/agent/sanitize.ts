/**
 * What goes into a prompt and what comes back out of a model. User text is cleaned of
 * what a reader cannot see but a model reads: HTML comments (hidden in a rendered GitHub comment),
 * zero-width and bidi control characters, and Unicode tag characters (invisible ASCII look-alikes).
 * Model output is cleaned of secrets (src/core/redact.ts): API keys and tokens that reached the model
 * (pasted into an issue, read from a file) must not be posted back to a public thread or committed.
 */

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** Zero-width characters, the word joiner, the BOM and the Mongolian vowel separator. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/g;
/** Bidi embeddings, overrides, isolates and marks (the "Trojan Source" characters). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** Unicode tag characters (U+E0000–U+E007F): invisible, yet read by models as ASCII. */
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/gu;

/** User text as it is safe to put in a prompt: hidden markup and invisible characters removed. */
export function sanitizeUserText(text: string): string {
  return text
    .replace(HTML_COMMENT, '')
    .replace(ZERO_WIDTH, '')
    .replace(BIDI_CONTROL, '')
    .replace(TAG_CHARACTERS, '')
    .trim();
}
