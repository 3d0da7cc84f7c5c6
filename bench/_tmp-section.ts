import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { conceptExpression, queryConcepts } from '../src/docs/fts-query.js';
import { SITES, half, loadSite, offTopicQuestions, readerQuestions } from './reader-questions.js';
const which = process.argv.includes('--held-out') ? 'held-out' : 'tune';
for (const site of SITES) {
  const corpus = loadSite(site)!;
  const index = DocsIndex.build(corpus.files, { navigation: corpus.navigation, mintignore: corpus.mintignore });
  const st = (index as any).statements;
  const sectionPages: Int32Array = st.sectionPages();
  const total = st.total('en');
  const measure = (query: string) => {
    const { passages } = retrieve(index, { conversation: [{ role: 'user', text: query }], retrievalPageSize: 5 });
    const pageRel = Math.max(0, ...passages.map((p) => p.relevance));
    const concepts = queryConcepts(query);
    const infos = concepts.map((c) => {
      const ids: number[] = st.matchingSections(conceptExpression(c), 'en');
      return { w: Math.max(0.05, Math.log((total + 1) / (ids.length + 0.5))), ids };
    });
    const W = infos.reduce((s, i) => s + i.w, 0);
    const pageIds = new Set<number>();
    const score = new Map<number, number>();
    for (const i of infos) for (const id of i.ids) score.set(id, (score.get(id) ?? 0) + i.w);
    // pages of passages: map via section with max score whose page is one of top pages... approximate: top-5 pages by page relevance unknown ids; use all sections
    let best = 0;
    for (const [, s] of score) best = Math.max(best, s / W);
    void pageIds; void sectionPages;
    return { pageRel, sec: best };
  };
  const r = half(readerQuestions(site), which).map((q) => ({ q: q.query, ...measure(q.query) }));
  const o = half(offTopicQuestions(), which).map((q) => ({ q, ...measure(q) }));
  console.log(`${site} readers sec: ${r.map((x) => x.sec.toFixed(2)).sort().join(' ')}`);
  for (const x of r.filter((x) => x.sec < 0.7)) console.log(`   ${x.sec.toFixed(2)} page ${x.pageRel.toFixed(2)} ${x.q}`);
  console.log(`${site} offtopic:`);
  for (const x of o.sort((a, b) => b.sec - a.sec)) console.log(`   ${x.sec.toFixed(2)} page ${x.pageRel.toFixed(2)} ${x.q}`);
  index.close();
}
