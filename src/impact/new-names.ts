import { STANDARD_LIBRARY_KEYS } from './common-names.js';
import type { DiffName } from './diff-names.js';
import { nameShape, shapeSpecificity } from './name-shapes.js';
import type { PageVocabulary } from './page-vocabulary.js';

/** Files that declare a program's interface: what they name, callers may use. */
const DECLARATION_FILE = /\.d\.[cm]?ts$|\.pyi$|\.hh?$|\.hpp$|(?:^|\/)(?:types|typings|include)\//i;

/** Names shaped less specifically than a two-word identifier are English words, never placed. */
const MIN_SPECIFICITY = 0.85;

/**
 * The names the diff introduces that look like part of the product's interface and no page
 * mentions yet: they need a place in the docs. A new name is taken as public when tests use it
 * (tests call what users call), the code exports it, a declaration file declares it, or it is an
 * upper-case code (error, warning and environment names are read by users by nature); an
 * internal helper or local variable is none of these, and placing it would only raise false
 * alarms. It must also be defined by the diff: a name the diff only uses is defined elsewhere,
 * so it is not new.
 */
export function newPublicNames(names: readonly DiffName[], vocabulary: PageVocabulary): DiffName[] {
  return names.filter(
    (name) =>
      name.change === 'added' &&
      name.defined &&
      shapeSpecificity(name.name) >= MIN_SPECIFICITY &&
      !STANDARD_LIBRARY_KEYS.has(name.key) &&
      (name.tested ||
        name.exported ||
        nameShape(name.name) === 'constant' ||
        name.files.some((file) => DECLARATION_FILE.test(file))) &&
      vocabulary.find(name.name).length === 0,
  );
}
