/**
 * What goes into a prompt and what comes back out of a model (issue 6). User text is cleaned of
 * what a reader cannot see but a model reads: HTML comments (hidden in a rendered GitHub comment),
 * zero-width and bidi control characters, and Unicode tag characters (invisible ASCII look-alikes).
 * Model output is cleaned of secrets: API keys and tokens that reached the model (pasted into an
 * issue, read from a file) must not be posted back to a public thread or committed.
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

/** Secret shapes, most specific first; each is replaced by `[REDACTED]`. */
const SECRET_PATTERNS: RegExp[] = [
  // PEM private keys (RSA, EC, OpenSSH, PKCS#8), whole blocks.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // GitHub: fine-grained PATs, classic PATs and the OAuth/app/refresh token families.
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  // docwright's own keys (admin `svc_`, assistant `svc_dsc_`).
  /\bsvc_[A-Za-z0-9_]{32,}/g,
  // OpenAI / Anthropic style keys (`sk-...`, `sk-proj-...`, `sk-ant-...`): long, with a digit, so
  // that anchors like `#ask-the-agent-in-live-preview` stay untouched.
  /(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
  // AWS access key ids, and secret keys written as an assignment.
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /(?<=aws_secret_access_key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
  // Slack tokens, Google API keys, Stripe live keys.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b[rs]k_live_[A-Za-z0-9]{20,}/g,
];

export const REDACTED = '[REDACTED]';

/** Text with every secret-looking string replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((result, pattern) => result.replace(pattern, REDACTED), text);
}

/** Whether text holds anything `redactSecrets` would replace. */
export function containsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
