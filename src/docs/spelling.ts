/**
 * British and American spellings of the same word. Readers write the one they learned ("customise
 * the colour of the sidebar") and a docs site is written in one of them ("Customize colors"); the
 * porter stemmer keeps them apart ("colour" and "color", "customis" and "custom"). A question's
 * word is searched in its other spelling too, whichever side the site is on.
 *
 * The rules cover the regular differences (-our/-or, -ise/-ize, -yse/-yze, -tre/-ter, -ogue/-og, a
 * doubled l before -ed and -ing) and a few single words. A rule may make a spelling no English word
 * has ("advize" from "advise"): no page holds it, so it matches nothing and costs nothing.
 */

/**
 * A regular difference: a word made of one of `stems`, then `british` or `american`, then one of
 * `endings`. -our/-or lists its words (not "hour", "four", "tour"…), and so do -tre/-ter, -ogue/-og
 * and the verbs whose final l British English doubles before -ed and -ing (cancelled, labelling;
 * not "installed" or "called", double in both); -ise/-ize and -yse/-yze take any word.
 */
interface Difference {
  stems: string;
  british: string;
  american: string;
  endings: string;
}

const DIFFERENCES: Difference[] = [
  {
    stems:
      'arm|behavi|cand|clam|col|demean|endeav|fav|flav|harb|hon|hum|lab|neighb|od|parl|rig|rum|savi|splend|tum|val|vap|vig',
    british: 'our',
    american: 'or',
    endings: '.*',
  },
  { stems: '\\p{L}{3,}', british: 'is', american: 'iz', endings: 'e|es|ed|ing|er|ers|ation|ations|able' },
  { stems: '\\p{L}{2,}', british: 'ys', american: 'yz', endings: 'e|es|ed|ing|er|ers' },
  {
    stems: 'cent|met|kilomet|centimet|millimet|lit|theat|fib|calib|spect|lust',
    british: 're',
    american: 'er',
    endings: 's?',
  },
  { stems: 'catal|dial|anal|prol|epil|monol', british: 'ogue', american: 'og', endings: 's?' },
  {
    stems:
      'cancel|channel|dial|equal|fuel|funnel|label|level|marshal|model|panel|pencil|signal|spiral|stencil|total|travel|tunnel',
    british: 'l',
    american: '',
    endings: 'ed|ing|er|ers',
  },
];

/** Each difference as two rules: a word's spelling on one side, and the other side's infix. */
const RULES = DIFFERENCES.flatMap(({ stems, british, american, endings }) =>
  [
    [british, american],
    [american, british],
  ].map(([own, other]) => ({ pattern: new RegExp(`^(${stems})${own}(${endings})$`, 'u'), other: other! })),
);

/** Words that differ otherwise, each British spelling with its American one. */
const WORDS: [string, string][] = [
  ['licence', 'license'],
  ['licences', 'licenses'],
  ['defence', 'defense'],
  ['offence', 'offense'],
  ['grey', 'gray'],
  ['judgement', 'judgment'],
  ['acknowledgement', 'acknowledgment'],
  ['artefact', 'artifact'],
  ['artefacts', 'artifacts'],
  ['enrol', 'enroll'],
  ['fulfil', 'fulfill'],
  ['programme', 'program'],
  ['programmes', 'programs'],
];
const OTHER_WORD = new Map(
  WORDS.flatMap(([british, american]) => [
    [british, american],
    [american, british],
  ]),
);

/** The other spellings of a lowercase word (none for most words). */
export function otherSpellings(word: string): string[] {
  const other = OTHER_WORD.get(word);
  if (other !== undefined) return [other];
  for (const { pattern, other: infix } of RULES) {
    const match = pattern.exec(word);
    if (match) return [`${match[1]}${infix}${match[2]}`];
  }
  return [];
}
