import { DocsIndex } from '../src/docs/docs-index.js';
import { loadSite } from './reader-questions.js';
const [site, ...qs] = process.argv.slice(2);
const corpus = loadSite(site as 'mintlify')!;
const index = DocsIndex.build(corpus.files, { navigation: corpus.navigation, mintignore: corpus.mintignore });
for (const q of qs) {
  console.log('Q', q);
  for (const h of index.search(q, { limit: 6, maxPerPage: 1 }))
    console.log(`  ${h.score.toFixed(2)} rel ${h.relevance.toFixed(2)} about ${h.about.toFixed(2)} ${h.urlPath} # ${h.heading}`);
}
