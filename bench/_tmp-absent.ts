import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { conceptExpression, queryConcepts } from '../src/docs/fts-query.js';
import { SITES, half, loadSite, offTopicQuestions, readerQuestions } from './reader-questions.js';
for (const site of SITES) {
  const corpus = loadSite(site)!;
  const index = DocsIndex.build(corpus.files, { navigation: corpus.navigation, mintignore: corpus.mintignore });
  const st = (index as any).statements;
  const show = (query: string, tag: string) => {
    const { passages } = retrieve(index, { conversation: [{ role: 'user', text: query }], retrievalPageSize: 5 });
    const rel = Math.max(0, ...passages.map((p) => p.relevance));
    if (rel >= 0.8) return;
    const parts = queryConcepts(query).map((c) => `${conceptExpression(c).slice(0, 30)}=${st.matchingSections(conceptExpression(c), 'en').length}`);
    console.log(`${tag} ${rel.toFixed(2)} ${query}\n      ${parts.join(' | ')}`);
  };
  for (const q of half(readerQuestions(site), 'tune')) show(q.query, `${site} R`);
  for (const q of half(offTopicQuestions(), 'tune')) show(q, `${site} O`);
  index.close();
}
