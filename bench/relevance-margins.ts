/**
 * Where the answer step's relevance bars fall on the tuning half: `npx tsx bench/relevance-margins.ts`.
 * Prints, per site, the best passage's relevance for reader questions and off-topic questions (the
 * half's and the off-topic tuning set), and the relevance of the expected page when it is
 * retrieved but not first. Off-topic lines also show the page's `about` share.
 */
import { retrieve } from '../src/assistant/retrieve.js';
import {
  SITES,
  half,
  loadSiteIndex,
  offTopicQuestions,
  offTopicTuningQuestions,
  readerQuestions,
} from './reader-questions.js';

const which = process.argv.includes('--held-out') ? 'held-out' : 'tune';
for (const site of SITES) {
  const index = await loadSiteIndex(site);
  if (!index) continue;
  const best = (query: string) => {
    const { passages } = retrieve(index, {
      conversation: [{ role: 'user', text: query }],
      retrievalPageSize: 5,
    });
    return passages;
  };
  const reader = half(readerQuestions(site), which).map((question) => {
    const passages = best(question.query);
    const top = Math.max(0, ...passages.map((passage) => passage.relevance));
    const expected = passages.find((passage) => question.expected.includes(passage.urlPath));
    return { query: question.query, top, expected: expected?.relevance };
  });
  const offTopic = [...half(offTopicQuestions(), which), ...offTopicTuningQuestions()].map((query) => {
    const passages = best(query);
    return {
      query,
      top: Math.max(0, ...passages.map((passage) => passage.relevance)),
      about: Math.max(0, ...passages.map((passage) => passage.about)),
    };
  });
  console.log(`\n${site}: reader questions, best relevance (sorted)`);
  console.log(
    reader
      .map((item) => item.top.toFixed(2))
      .sort()
      .join(' '),
  );
  console.log(`${site}: expected page's relevance when retrieved`);
  console.log(
    reader
      .filter((item) => item.expected !== undefined)
      .map((item) => item.expected!.toFixed(2))
      .sort()
      .join(' '),
  );
  for (const item of reader.filter((entry) => entry.top < 0.6))
    console.log(`  low: ${item.top.toFixed(2)} ${item.query} (expected ${item.expected?.toFixed(2)})`);
  console.log(`${site}: off-topic, best relevance`);
  for (const item of offTopic.sort((a, b) => b.top - a.top))
    console.log(`  ${item.top.toFixed(2)} (about ${item.about.toFixed(2)}) ${item.query}`);
  index.close();
}
