/**
 * Names as code and docs write them. A name is matched by its words, not its spelling:
 * `maxRetries`, `max-retries`, `max_retries`, `MAX_RETRIES` and `--max-retries` are one name
 * to a reader, so they share one key ("max retries").
 */

/** What a name looks like, which says how likely it is to mean one thing only. */
export type NameShape =
  /** camelCase or PascalCase with at least two words: `maxRetries`, `ProxyAgent`. */
  | 'camel'
  /** Upper-case with underscores or digits: `MAX_RETRIES`, `ERR_NOT_FOUND`, `DEP0025`. */
  | 'constant'
  /** Lower-case words joined by `_` or `-`: `max_retries`, `max-retries`. */
  | 'joined'
  /** A command-line flag: `--max-retries`, `-v` is too short to be one. */
  | 'flag'
  /** Words joined by `.`, `:` or `/` in a string: `app:request:start`, `/users/:id`. */
  | 'compound'
  /** One plain word: `timeout`, `signal`. */
  | 'word';

/** Lower-case words of a name: `HTTP2SessionTimeout` -> http2, session, timeout. */
export function nameWords(name: string): string[] {
  return name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** The spelling-free key of a name: its words joined by spaces. */
export function nameKey(name: string): string {
  return nameWords(name).join(' ');
}

/** The shape of a name as written. */
export function nameShape(name: string): NameShape {
  if (/^--[a-z]/i.test(name)) return 'flag';
  if (/[.:/]/.test(name)) return 'compound';
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(name) && (/_/.test(name) || /\d/.test(name))) return 'constant';
  if (/[a-z0-9][A-Z]|[A-Z]{2}[a-z]/.test(name)) return 'camel';
  if (/[a-z0-9][_-][a-z0-9]/i.test(name)) return 'joined';
  return 'word';
}

/**
 * How much a name's shape alone says it is one particular thing (0-1). A name of several words
 * (`maxRetries`) or an upper-case code (`ERR_TIMEOUT`) is rarely written by accident; a plain word
 * (`timeout`) is also English, so a page holding it says little.
 */
export function shapeSpecificity(name: string): number {
  const words = nameWords(name).length;
  switch (nameShape(name)) {
    case 'constant':
    case 'flag':
    case 'compound':
      return 1;
    case 'camel':
    case 'joined':
      return words >= 3 ? 1 : 0.85;
    case 'word':
      return name.length >= 6 ? 0.35 : 0.25;
  }
}
