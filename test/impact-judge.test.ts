/**
 * The change judge: the first of the analysis's two questions (does this change need any docs
 * change?), answered apart from the second (which pages?), with weights fitted on real changes.
 */
import { describe, expect, it } from 'vitest';
import { DOCS_SYNC_DIR, hasDocsSyncCases, loadDocsSyncCases } from '../bench/docs-sync-cases.js';
import { fitJudge } from '../bench/judge-fit.js';
import { decideImpact, rankImpact } from '../src/impact/analyze-impact.js';
import { listPages, type JudgeModel } from '../src/impact/change-judge.js';
import { analyzeImpact, type ImpactPage } from '../src/impact/index.js';
import { JUDGE_MODEL } from '../src/impact/judge-model.js';
import { fitLogistic, logisticChance } from '../src/impact/logistic.js';
import { filePatch } from './helpers/file-patch.js';

const pages = [
  {
    path: 'reference/client.md',
    text: [
      '# Client',
      '',
      '`new Client(url, options)` opens connections to one origin.',
      '',
      '## Options',
      '',
      '- `keepAliveTimeout` (number): milliseconds an idle socket is kept. Default: `4000`.',
      '- `maxSockets` (number): connections open at most.',
      '- `socketPath` (string): a Unix socket to connect through.',
      '',
    ].join('\n'),
  },
  {
    path: 'guides/connections.md',
    text: '# Connections\n\nA client keeps its sockets open between requests, so a second request to the same origin is fast.\n',
  },
  {
    path: 'guides/migrating-to-v2.md',
    text: '# Migrating to 2.0\n\n## Options\n\n- `Client` takes `maxSockets`, `socketPath` and `keepAliveTimeout`.\n',
  },
  { path: 'index.md', text: '# Acme HTTP\n\nAn HTTP client for servers and scripts.\n' },
];

/** A public option added to the client: the code, its type declaration and a test. */
const newOption = [
  filePatch('lib/client.js', [
    '   constructor (url, { maxSockets, socketPath, keepAliveTimeout } = {}) {',
    '+    this.connectTimeout = options.connectTimeout ?? 10e3',
    '     this.maxSockets = maxSockets ?? Infinity',
  ]),
  filePatch('types/client.d.ts', [
    '   export interface ClientOptions {',
    '     maxSockets?: number;',
    '+    connectTimeout?: number;',
    '     socketPath?: string;',
  ]),
  filePatch('test/client.test.js', [
    "   test('options', () => {",
    "+    const client = new Client('http://localhost', { connectTimeout: 5 })",
    '+    assert.equal(client.connectTimeout, 5)',
  ]),
].join('\n');

/** A fix inside a function: documented names move, nothing a reader sees changes. */
const internalFix = filePatch('lib/client.js', [
  '   destroy () {',
  '-    for (const socket of this.sockets) socket.destroy()',
  '+    for (const socket of [...this.sockets]) socket.destroy()',
  '     this.sockets.clear()',
]);

describe('the change judge', () => {
  it('judges a new public option to need docs and lists the page of its siblings', () => {
    const result = analyzeImpact({ diff: newOption, pages });
    expect(result.judgement.needsDocs).toBe(true);
    expect(result.judgement.chance).toBeGreaterThanOrEqual(JUDGE_MODEL.threshold);
    expect(result.pages.filter((page) => page.affected).map((page) => page.path)).toContain(
      'reference/client.md',
    );
  });

  it('judges an internal fix to need none, and lists nothing while still ranking', () => {
    const result = analyzeImpact({ diff: internalFix, pages });
    expect(result.judgement.needsDocs).toBe(false);
    expect(result.pages.filter((page) => page.affected)).toEqual([]);
    expect(result.pages.length).toBeGreaterThan(0);
  });

  it('gives the same ranking whatever the judge, and the judge only decides what is listed', () => {
    const ranked = rankImpact({ diff: newOption, pages });
    const never: JudgeModel = { ...JUDGE_MODEL, bias: -100 };
    const always: JudgeModel = { ...JUDGE_MODEL, bias: 100, weights: {} };
    const quiet = decideImpact(ranked, never);
    const loud = decideImpact(ranked, always);
    expect(quiet.pages.map((page) => page.path)).toEqual(loud.pages.map((page) => page.path));
    expect(quiet.judgement.needsDocs).toBe(false);
    expect(loud.judgement).toEqual({ needsDocs: true, chance: 1 });
  });
});

describe('listPages', () => {
  const page = (path: string, score: number, affected = false): ImpactPage => ({
    path,
    score,
    affected,
    evidence: [],
  });
  const ranked = [
    page('release-notes.md', 0.9),
    page('reference/client.md', 0.4),
    page('guides/connections.md', 0.3),
    page('reference/pool.md', 0.1),
    page('reference/agent.md', 0.05, true),
  ];
  const listed = (pages: ImpactPage[]) => pages.filter((entry) => entry.affected).map((entry) => entry.path);

  it('for a change judged to need docs: the best page, and the next ones near it, up to `most`', () => {
    const judged = { needsDocs: true, chance: 0.9 };
    const past = new Set(['release-notes.md']);
    expect(listed(listPages(ranked, judged, { most: 3, ratio: 0.7 }, past))).toEqual([
      'reference/client.md',
      'guides/connections.md',
      'reference/agent.md',
    ]);
    expect(listed(listPages(ranked, judged, { most: 1, ratio: 0 }, past))).toEqual([
      'reference/client.md',
      'reference/agent.md',
    ]);
  });

  it('lists one page more for a change to `wide` code files or more', () => {
    const always: JudgeModel = { ...JUDGE_MODEL, bias: 100, weights: {}, most: 1, ratio: 0, wide: 3 };
    const change = (codeFiles: number) => ({
      pages: ranked.slice(1),
      features: rankImpact({ diff: newOption, pages }).features,
      unlisted: new Set<string>(),
      codeFiles,
    });
    expect(listed(decideImpact(change(2), always).pages)).toEqual([
      'reference/client.md',
      'reference/agent.md',
    ]);
    expect(listed(decideImpact(change(3), always).pages)).toEqual([
      'reference/client.md',
      'guides/connections.md',
      'reference/agent.md',
    ]);
    expect(listed(decideImpact(change(9), { ...always, wide: 0 }).pages)).toHaveLength(2);
  });

  it('for a change judged to need none: only the pages sure on their own evidence', () => {
    expect(listed(listPages(ranked, { needsDocs: false, chance: 0.1 }, { most: 3, ratio: 0 }))).toEqual([
      'reference/agent.md',
    ]);
  });

  it('never lists an unlisted page (one that records the past), however high it ranks', () => {
    const result = listPages(
      [page('CHANGELOG.md', 0.95, true), page('guide.md', 0.2)],
      { needsDocs: true, chance: 1 },
      { most: 2, ratio: 0 },
      new Set(['CHANGELOG.md']),
    );
    expect(listed(result)).toEqual(['guide.md']);
    // The analysis itself marks the changelog so.
    expect(rankImpact({ diff: newOption, pages }).unlisted).toContain('guides/migrating-to-v2.md');
  });
});

describe('pages ranked but never listed, and tests that name a page', () => {
  it('ranks a page a program wrote (its head says so) but never lists it', () => {
    const generated = {
      path: 'reference/cli-ref.md',
      text: '<!--\nCODE GENERATED AUTOMATICALLY\nTHIS FILE MUST NOT BE EDITED BY HAND\n-->\n\n`--keepAliveTimeout`: idle socket time.\n`--maxSockets`: sockets at most.\n`--socketPath`: a Unix socket.\n',
    };
    const result = analyzeImpact({ diff: newOption, pages: [...pages, generated] });
    const page = result.pages.find((entry) => entry.path === 'reference/cli-ref.md');
    expect(page?.score).toBeGreaterThan(0);
    expect(page?.affected).toBe(false);
    // A product that says it generates things is not a generated page.
    const prose = { path: 'features.md', text: '# Features\n\nYour API docs are automatically generated.\n' };
    const ranked = rankImpact({ diff: newOption, pages: [...pages, generated, prose] });
    expect([...ranked.unlisted].sort()).toEqual(['guides/migrating-to-v2.md', 'reference/cli-ref.md']);
  });

  it('takes a changed test named after a page as a sign for that page', () => {
    const formPages = [
      {
        path: 'tutorial/request-form-models.md',
        text: '# Form models\n\nDeclare a model for the form fields.\n',
      },
      { path: 'tutorial/body.md', text: '# Request body\n\nDeclare a model for the body.\n' },
    ];
    const diff = [
      filePatch('fastapi/dependencies/utils.py', [
        '     if is_form:',
        '+        values = _model_fields(field)',
        '     return values',
      ]),
      filePatch('tests/test_tutorial/test_request_form_models/test_tutorial001.py', [
        '   def test_post_body_form():',
        "+    assert response.json() == {'username': 'Foo'}",
      ]),
    ].join('\n');
    const page = analyzeImpact({ diff, pages: formPages }).pages.find(
      (entry) => entry.path === 'tutorial/request-form-models.md',
    );
    expect(page?.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'file-name',
        file: 'tests/test_tutorial/test_request_form_models/test_tutorial001.py',
      }),
    );
    expect(analyzeImpact({ diff, pages: formPages }).pages[0]?.path).toBe('tutorial/request-form-models.md');
  });
});

describe('fitLogistic', () => {
  it('learns which signs go with the label, the same weights on every run', () => {
    const examples = Array.from({ length: 40 }, (_, index) => ({
      features: { exposed: index % 2, noise: (index * 7) % 3 },
      label: index % 2 === 1,
    }));
    const model = fitLogistic(examples, ['exposed', 'noise']);
    expect(model).toEqual(fitLogistic(examples, ['exposed', 'noise']));
    expect(logisticChance(model, { exposed: 1, noise: 1 })).toBeGreaterThan(0.8);
    expect(logisticChance(model, { exposed: 0, noise: 1 })).toBeLessThan(0.2);
    expect(Math.abs(model.weights.noise!)).toBeLessThan(Math.abs(model.weights.exposed!));
  });
});

describe.skipIf(!hasDocsSyncCases())(`the shipped judge (needs ${DOCS_SYNC_DIR})`, () => {
  it('is the judge the benchmark fits on the docs-sync cases', async () => {
    const cases = await loadDocsSyncCases(DOCS_SYNC_DIR);
    const judged = cases.map((testCase) => ({
      ...testCase,
      ranked: rankImpact({ diff: testCase.patch, pages: testCase.files }),
    }));
    const fitted = fitJudge(judged);
    const { threshold, most, ratio, wide } = fitted;
    expect({ threshold, most, ratio, wide }).toEqual({
      threshold: JUDGE_MODEL.threshold,
      most: JUDGE_MODEL.most,
      ratio: JUDGE_MODEL.ratio,
      wide: JUDGE_MODEL.wide,
    });
    expect(fitted.bias).toBeCloseTo(JUDGE_MODEL.bias, 2);
    for (const [name, weight] of Object.entries(JUDGE_MODEL.weights))
      expect(fitted.weights[name], name).toBeCloseTo(weight, 2);
  }, 120_000);
});
