/**
 * Common English verbs, adjectives and adverbs that say how, when or how much, or name a generic
 * action: the words a reader puts around what they ask about ("a demo I can play with", "will it
 * push straight to main?"). A site that never uses one of them still answers the question, while
 * a word no page holds otherwise counts as what the question is about, and weighs the most. Left
 * out on purpose: nouns, which name a question's subject ("recipe", "France"), and the words of
 * everyday life that do too (feelings, health, food, weather, size, price, leisure: "sick",
 * "happy", "hot", "cheap"), since a question about those is one the docs do not cover.
 *
 * A general list, not drawn from any site's questions: frequent words of these kinds in everyday
 * English, and their common forms.
 */
const WORDS = `
able about above actual actually again ago alone already also always anyway apart ask asked
asking away basic basically be become begin believe better bit bother break bring broken
brought build call came care carry cause certain certainly change check choose clean clear
clearly close come comes coming common completely correct could cut daily decide definitely did
different difficult do does doing done double down drop due early else empty end enough entire
entirely especially even ever every exact exactly expect explain false far feel felt few fill
final finally find fine finish fit fix follow forget forgot forward full fully get gets getting
give go goes going gone got guess half handle hang happen happened happens hardly have hear
heard help here hit hold ignore important instead just keep kept kind knew know known last late
later leave left less let like likely little look looking lot main make making many matter may
maybe mean meant might mind missing more most mostly move much must near nearly need never new
normal normally nothing now odd off often ok okay only open order other own pass pick place
play played playing please plenty possible pretty probably proper properly pull push put quick
quickly quite rather reach read ready real really reason rest right run safe same save saw say
seem seen send sent set shall should show shut side simple simply since slightly so somehow
sometimes soon start still stop straight stuck stuff such suddenly suppose sure surely take
taken talk tell then thing things think thought together too took totally true truly try trying
turn under unless until up use used useful usual usually very wait want wanted way well went
whole will without work works would wrong yet
`;

/** The words of the list, lower-cased. */
export const EVERYDAY_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));
