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

/** Words spelled -our in British English and -or in American (not "hour", "four", "tour"…). */
const OUR =
  /^(arm|behavi|cand|clam|col|demean|endeav|fav|flav|harb|hon|hum|lab|neighb|od|parl|rig|rum|savi|splend|tum|val|vap|vig)our(.*)$/;
const OR =
  /^(arm|behavi|cand|clam|col|demean|endeav|fav|flav|harb|hon|hum|lab|neighb|od|parl|rig|rum|savi|splend|tum|val|vap|vig)or(.*)$/;
/** The -ise/-ize verbs and what is made of them (customised, customising, customisation). */
const ISE = /^(\p{L}{3,})is(e|es|ed|ing|er|ers|ation|ations|able)$/u;
const IZE = /^(\p{L}{3,})iz(e|es|ed|ing|er|ers|ation|ations|able)$/u;
const YSE = /^(\p{L}{2,})ys(e|es|ed|ing|er|ers)$/u;
const YZE = /^(\p{L}{2,})yz(e|es|ed|ing|er|ers)$/u;
/** Words spelled -tre in British English and -ter in American. */
const TRE = /^(cent|met|kilomet|centimet|millimet|lit|theat|fib|calib|spect|lust)re(s|d)?$/;
const TER = /^(cent|met|kilomet|centimet|millimet|lit|theat|fib|calib|spect|lust)er(s|ed)?$/;
const OGUE = /^(catal|dial|anal|prol|epil|monol)ogue(s)?$/;
const OG = /^(catal|dial|anal|prol|epil|monol)og(s)?$/;
/**
 * Verbs whose final l is doubled before -ed and -ing in British English only (cancelled, labelling,
 * modelled); not "installed" or "called", whose l is double in both.
 */
const DOUBLED_L =
  /^(cancel|channel|dial|equal|fuel|funnel|label|level|marshal|model|panel|pencil|signal|spiral|stencil|total|travel|tunnel)l(ed|ing|er|ers)$/;
const SINGLE_L =
  /^(cancel|channel|dial|equal|fuel|funnel|label|level|marshal|model|panel|pencil|signal|spiral|stencil|total|travel|tunnel)(ed|ing|er|ers)$/;

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
  const rules: [RegExp, (match: RegExpExecArray) => string][] = [
    [OUR, ([, stem, rest]) => `${stem}or${rest}`],
    [OR, ([, stem, rest]) => `${stem}our${rest}`],
    [ISE, ([, stem, rest]) => `${stem}iz${rest}`],
    [IZE, ([, stem, rest]) => `${stem}is${rest}`],
    [YSE, ([, stem, rest]) => `${stem}yz${rest}`],
    [YZE, ([, stem, rest]) => `${stem}ys${rest}`],
    [TRE, ([, stem, rest = '']) => `${stem}er${rest === 'd' ? 'ed' : rest}`],
    [TER, ([, stem, rest = '']) => `${stem}re${rest === 'ed' ? 'd' : rest}`],
    [OGUE, ([, stem, rest = '']) => `${stem}og${rest}`],
    [OG, ([, stem, rest = '']) => `${stem}ogue${rest}`],
    [DOUBLED_L, ([, stem, rest]) => `${stem}${rest}`],
    [SINGLE_L, ([, stem, rest]) => `${stem}l${rest}`],
  ];
  for (const [pattern, spell] of rules) {
    const match = pattern.exec(word);
    if (match) return [spell(match)];
  }
  return [];
}
