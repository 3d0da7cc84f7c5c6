/**
 * The one secret redactor: every place that stores, shows or logs text a person or a model wrote
 * (readers' questions, thread messages, job prompts and replies, error sentences, log lines) passes
 * it through `redactSecrets`. Secrets are recognised by shape (docwright's keys, GitHub tokens,
 * provider keys, PEM blocks) and by value (the secrets this server was configured with).
 */

/** Secret shapes, most specific first; each match is replaced by `[REDACTED]`. */
const SECRET_PATTERNS: (RegExp | SecretShape)[] = [
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
  {
    pattern: /(?<=aws_secret_access_key["']?\s{0,32}[:=]\s{0,32}["']?)[A-Za-z0-9/+=]{40}/gi,
    requires: /aws_secret_access_key/i,
  },
  // Slack tokens, Google API keys, Stripe live keys.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b[rs]k_live_[A-Za-z0-9]{20,}/g,
  // Credentials in an Authorization header quoted back in an error message; with a digit, so that
  // placeholders in the docs (`Bearer YOUR_API_KEY`) stay.
  {
    pattern: /(?<=\b(?:Bearer|token)\s{1,32})(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{16,}/gi,
    requires: /bearer|token/i,
  },
];

/**
 * A shape that opens with a lookbehind, with a word it cannot match without. Such a pattern is
 * tried at every position of the text, where one opening with its literal is found by a quick
 * scan, so the word is looked for first: every question and answer the assistant stores passes
 * through here. The whitespace a lookbehind allows is bounded: unbounded, every position of a long
 * run of spaces after the word scanned back over the whole run (a 200 KB message took 11 s).
 */
interface SecretShape {
  pattern: RegExp;
  requires: RegExp;
}

export const REDACTED = '[REDACTED]';

/** Configured secrets shorter than this are not redacted by value: they would hit ordinary words. */
const MIN_CONFIGURED_SECRET_LENGTH = 8;

let configuredSecrets: string[] = [];

/**
 * Adds the values this process was configured with (webhook secret, tokens, provider keys, the
 * private key) to what is redacted wherever they appear. Called once at start-up.
 */
export function redactConfiguredSecrets(values: readonly (string | undefined)[]): void {
  const added = values.filter(
    (value): value is string => value !== undefined && value.length >= MIN_CONFIGURED_SECRET_LENGTH,
  );
  // Longest first, so a secret that contains another is replaced whole.
  configuredSecrets = [...new Set([...configuredSecrets, ...added])].sort((a, b) => b.length - a.length);
}

/** Text with every secret-looking string and every configured secret replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const shape of SECRET_PATTERNS) {
    if (shape instanceof RegExp) result = result.replace(shape, REDACTED);
    else if (shape.requires.test(result)) result = result.replace(shape.pattern, REDACTED);
  }
  for (const secret of configuredSecrets) result = result.split(secret).join(REDACTED);
  return result;
}

/** Whether text holds anything `redactSecrets` would replace. */
export function containsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
