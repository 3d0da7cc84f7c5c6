/**
 * English words dropped from search queries: with terms OR-ed, "how do I ..." would otherwise match
 * every section. Question words and auxiliaries are included because readers phrase queries as
 * questions; "not"/"no" are included because FTS terms cannot express negation anyway. Indefinite
 * pronouns ("when someone hovers") stand for the reader's users, whom no page names.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any anybody anyone anything are aren as at
  be because been before being below between both but by can cannot could couldn did didn do does
  doesn doing don down during each either else etc ever everybody everyone everything few for from
  further get gets getting got had hadn has hasn have haven having he her here hers herself him
  himself his how however i if in into is isn it its itself just let lets like ll may me might more
  most much must mustn my myself need no nobody nor not nothing now of off on once one only or
  other ought our ours ourselves out over own please re really s same shall shan she should shouldn
  so some somebody someone something such t than that the their theirs them themselves then there
  these they this those through to too under until up upon us use used using ve very via want was
  wasn we were weren what when where whether which while who whom whose why will with won would
  wouldn yes you your yours yourself yourselves`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
