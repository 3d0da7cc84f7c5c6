/**
 * Repository paths as docwright reads and writes them: POSIX, relative, no `..`. The syntax rules
 * here hold whatever the docs root is; the write policy (./write-policy.ts) adds the rest.
 */
import path from 'node:path';
import { badRequest } from '../core/errors.js';

/**
 * Characters that render like `/`, `\` or `.`: a path that shows `docs∕..∕x` to a reviewer must not
 * mean something else to git or to a file system that folds them.
 */
const LOOK_ALIKES = /[\u2024\u2044\u2215\u2216\u2571\u29F5\u29F8\u29F9\uFE52\uFE68\uFF0E\uFF0F\uFF3C]/u;
/** Zero-width and direction-changing characters hide what a path really says. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/u;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001F\u007F]/;
/** Longer paths are not docs pages; refusing them keeps messages and listings readable. */
const MAX_PATH_LENGTH = 400;

/**
 * Normalises a repository-relative path and refuses anything that could leave the repository:
 * absolute paths, `..` segments, empty names and NUL bytes. Used for every overlay key.
 */
export function normalizePath(file: string): string {
  if (file.includes('\0')) throw badRequest(`Invalid path: ${JSON.stringify(file)}`);
  const posix = file.replaceAll('\\', '/');
  if (posix.startsWith('/') || /^[a-zA-Z]:/.test(posix))
    throw badRequest(`Absolute paths are not allowed: ${file}`);
  if (posix.split('/').includes('..')) throw badRequest(`Paths may not contain "..": ${file}`);
  const normalized = path.posix.normalize(posix).replace(/^\.\//, '').replace(/\/$/, '');
  if (normalized === '' || normalized === '.') throw badRequest(`Invalid path: ${JSON.stringify(file)}`);
  return normalized;
}

/**
 * Why a path as typed may never be written anywhere in a repository, or undefined when its
 * spelling is safe. Checked on the raw text, before any normalising could hide an escape.
 */
export function unsafePathReason(raw: string): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return 'the path is empty';
  if (raw.length > MAX_PATH_LENGTH) return `the path is longer than ${MAX_PATH_LENGTH} characters`;
  if (CONTROL.test(raw)) return 'the path holds a control character (such as a NUL byte)';
  if (INVISIBLE.test(raw)) return 'the path holds invisible characters';
  if (LOOK_ALIKES.test(raw)) return 'the path holds a character that looks like "/", "\\" or "." but is not';
  if (raw.includes('\\')) return 'backslashes are not folder separators here; use "/"';
  if (/%[0-9a-f]{2}/i.test(raw)) return 'percent-encoded characters (such as %2e) are not allowed in paths';
  if (raw.startsWith('/') || raw.startsWith('~') || /^[a-z]:/i.test(raw)) {
    return 'absolute paths are not allowed; give the path relative to the repository';
  }
  const segments = raw.split('/');
  if (segments.includes('..')) return 'paths may not contain ".."';
  for (const segment of segments) {
    const reason = unsafeSegmentReason(segment);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The rules for one folder or file name; `.` and empty segments are only spelling. */
function unsafeSegmentReason(segment: string): string | undefined {
  if (segment === '' || segment === '.') return undefined;
  const lower = segment.toLowerCase();
  if (lower === '.git' || lower === '.github') return `${segment}/ is never written`;
  // Windows and macOS file systems drop trailing dots and spaces (`.git.` is `.git`), NTFS
  // reads `name:stream` as a hidden stream, and 8.3 short names (`GIT~1`) alias long ones.
  if (/[. ]$/.test(segment)) return `"${segment}" ends with a dot or a space, which some file systems drop`;
  if (segment.includes(':')) return `"${segment}" holds a colon, which names a hidden stream on Windows`;
  if (/~\d/.test(segment))
    return `"${segment}" looks like a Windows short name, which can alias another folder`;
  return undefined;
}
