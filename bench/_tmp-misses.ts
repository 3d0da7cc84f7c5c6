import { DocsIndex } from '../src/docs/docs-index.js';
import { SITES, half, loadSite, readerQuestions } from './reader-questions.js';
for (const site of SITES) {
  const corpus = loadSite(site)!;
  const index = DocsIndex.build(corpus.files, { navigation: corpus.navigation, mintignore: corpus.mintignore });
  for (const q of half(readerQuestions(site), 'tune')) {
    const hits = index.search(q.query, { limit: 50, maxPerPage: 1 });
    const rank = hits.findIndex((h) => q.expected.includes(h.urlPath));
    if (rank >= 1) console.log(`${site} rank ${rank + 1}: ${q.query} | expected ${q.expected.join(',')} rel ${hits[rank]?.relevance.toFixed(2)} | top ${hits.slice(0, rank).map((h) => h.urlPath + ':' + h.relevance.toFixed(2)).join(' ')}`);
    if (rank < 0) console.log(`${site} NOT FOUND: ${q.query} | expected ${q.expected.join(',')}`);
  }
  index.close();
}
