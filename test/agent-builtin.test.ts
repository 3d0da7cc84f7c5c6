import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BuiltinAgent, INSTRUCTION_FORMS } from '../src/agent/builtin/index.js';
import type { AgentResult } from '../src/agent/types.js';
import { listNavigationPages } from '../src/docs/navigation.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { silentLogger } from '../src/core/logger.js';
import { policyFor } from './helpers/write-policy.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sampleDocs = path.resolve(here, '../examples/sample-docs');
const mintlifyDocs = path.resolve(here, '../../shared/corpora/mintlify-docs');
const hasMintlifyDocs = existsSync(path.join(mintlifyDocs, 'docs.json'));

/** Every file under `dir` (but `.git`), keyed by its path under `prefix`. */
function readTree(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    const key = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) for (const [file, content] of readTree(full, key)) files.set(file, content);
    else if (entry.isFile()) files.set(key, readFileSync(full));
  }
  return files;
}

const sampleFiles = readTree(sampleDocs);
const sample = (file: string): string => sampleFiles.get(file)?.toString('utf8') ?? '';

function overlayOf(files: Map<string, Buffer | string> | Iterable<[string, Buffer | string]>): Overlay {
  return new Overlay(new MemorySnapshot('base', files));
}

/** The sample docs at the repository root, or under `prefix`, plus `extra` files. */
function sampleOverlay(prefix = '', extra: Record<string, string> = {}): Overlay {
  const files = new Map<string, Buffer | string>();
  for (const [file, content] of sampleFiles) files.set(prefix === '' ? file : `${prefix}/${file}`, content);
  for (const [file, content] of Object.entries(extra)) files.set(file, content);
  return overlayOf(files);
}

function run(files: Overlay, instructions: string | string[], docsRoot = ''): Promise<AgentResult> {
  return new BuiltinAgent().run({
    jobId: 'job_test',
    instructions: typeof instructions === 'string' ? [instructions] : instructions,
    history: [],
    files,
    policy: policyFor(docsRoot),
    signal: new AbortController().signal,
    logger: silentLogger,
  });
}

/** The net changes as `{ path: text | null }`. */
async function changes(files: Overlay): Promise<Record<string, string | null>> {
  const result: Record<string, string | null> = {};
  for (const change of await files.changes()) result[change.path] = change.content?.toString('utf8') ?? null;
  return result;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;
const navigationOf = async (files: Overlay, file = 'docs.json') =>
  listNavigationPages(JSON.parse(await files.read(file)));

describe('BuiltinAgent: replace text', () => {
  it('replaces exact text in every page, frontmatter included, and counts occurrences', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'replace "Acme Cloud" with "Acme Platform"');
    const expected = [...sampleFiles.keys()].filter(
      (file) => file.endsWith('.mdx') && sample(file).includes('Acme Cloud'),
    );
    const changed = await changes(files);
    expect(Object.keys(changed).sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThanOrEqual(5);
    for (const file of expected) {
      expect(changed[file]).toBe(sample(file).split('Acme Cloud').join('Acme Platform'));
      expect(result.reply).toContain(`\`${file}\` (${count(sample(file), 'Acme Cloud')})`);
    }
    expect(changed['index.mdx']).toMatch(/^description: "Acme Platform runs/m);
    expect(result.title).toBe('Replace "Acme Cloud" with "Acme Platform"');
    const total = expected.reduce((sum, file) => sum + count(sample(file), 'Acme Cloud'), 0);
    expect(result.reply).toContain(`${total} occurrences in ${expected.length} files`);
  });

  it('accepts "rename", typographic quotes, "please" and a final period', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'Please rename “Acme Cloud” to “Acme Platform”.');
    expect(result.title).toBe('Replace "Acme Cloud" with "Acme Platform"');
    expect(await files.read('quickstart.mdx')).toContain('an Acme Platform account');
  });

  it.each([
    ['/docs replace "Acme Cloud" with "Acme Platform"'],
    ['replace Acme Cloud with Acme Platform everywhere'],
    ["Change all occurrences of 'Acme Cloud' to 'Acme Platform' in all pages."],
    ['please, replace the text "Acme Cloud" with "Acme Platform"!'],
    ['Replace "Acme Cloud” with “Acme Platform"'],
  ])('understands the wording %s', async (instruction) => {
    const files = sampleOverlay();
    const result = await run(files, instruction);
    expect(result.title).toBe('Replace "Acme Cloud" with "Acme Platform"');
    expect(await files.read('index.mdx')).not.toContain('Acme Cloud');
  });

  it('changes nothing and says so when the text does not occur, pointing at other-case matches', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'replace "acme cloud" with "Acme Platform"');
    expect(await files.changes()).toEqual([]);
    expect(result.title).toBeUndefined();
    expect(result.reply).toContain('"acme cloud" does not occur');
    expect(result.reply).toContain('case-sensitive; "Acme Cloud" does occur');
  });
});

describe('BuiltinAgent: add a page', () => {
  it('creates the page with frontmatter and body, and lists it next to its folder in docs.json', async () => {
    const files = sampleOverlay();
    const result = await run(
      files,
      'add a page guides/webhooks titled "Webhooks" described as "Get notified when a deployment finishes." with "Acme Cloud sends a POST request."',
    );
    const changed = await changes(files);
    expect(Object.keys(changed).sort()).toEqual(['docs.json', 'guides/webhooks.mdx']);
    expect(changed['guides/webhooks.mdx']).toBe(
      '---\ntitle: "Webhooks"\ndescription: "Get notified when a deployment finishes."\n---\n\nAcme Cloud sends a POST request.\n',
    );
    const pages = (await navigationOf(files)).map((entry) => entry.page);
    expect(
      pages.slice(pages.indexOf('guides/deploy-an-app'), pages.indexOf('guides/deploy-an-app') + 2),
    ).toEqual(['guides/deploy-an-app', 'guides/webhooks']);
    expect(changed['docs.json']).toBe(
      sample('docs.json').replace(
        '"guides/deploy-an-app",',
        '"guides/deploy-an-app",\n          "guides/webhooks",',
      ),
    );
    expect(result.title).toBe('Add page guides/webhooks');
    expect(result.reply).toContain('Listed it in `docs.json` under **Guides**');
  });

  it('takes the body from the following lines and a group by name', async () => {
    const files = sampleOverlay();
    await run(
      files,
      'Add a page guides/regions.md titled Regions in the "Configuration" group\n\n## Choose a region\n\nPick one.',
    );
    expect(await files.read('guides/regions.md')).toBe(
      '---\ntitle: "Regions"\n---\n\n## Choose a region\n\nPick one.\n',
    );
    const entry = (await navigationOf(files)).find((item) => item.page === 'guides/regions');
    expect(entry?.groups).toEqual(['Guides', 'Configuration']);
  });

  it('understands other wordings of "add a page"', async () => {
    const files = sampleOverlay();
    await run(files, "create a new page at api/webhooks entitled 'Webhooks API', after api/deployments");
    expect(await files.read('api/webhooks.mdx')).toBe('---\ntitle: "Webhooks API"\n---\n');
    const pages = (await navigationOf(files)).map((entry) => entry.page);
    expect(pages[pages.indexOf('api/deployments') + 1]).toBe('api/webhooks');
  });

  it('refuses to overwrite an existing page', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'add a page quickstart titled "Quickstart"');
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toContain('the page `quickstart.mdx` already exists');
  });

  it('updates a legacy mint.json', async () => {
    const mint = JSON.stringify(
      { name: 'Old', navigation: [{ group: 'Guides', pages: ['guides/a'] }] },
      null,
      2,
    );
    const files = overlayOf([
      ['mint.json', mint],
      ['guides/a.mdx', '---\ntitle: A\n---\n'],
    ]);
    await run(files, 'add a page guides/b titled "B"');
    expect(JSON.parse(await files.read('mint.json'))).toEqual({
      name: 'Old',
      navigation: [{ group: 'Guides', pages: ['guides/a', 'guides/b'] }],
    });
  });
});

describe('BuiltinAgent: append a section', () => {
  const ending = '## Rate limits\n\nEach token may send 600 requests per minute.\n';

  it.each([['quickstart'], ['quickstart.mdx'], ['/quickstart'], ['"Quickstart"']])(
    'appends to the page named %s',
    async (page) => {
      const files = sampleOverlay();
      const result = await run(
        files,
        `append a section "Rate limits" to ${page} with "Each token may send 600 requests per minute."`,
      );
      const changed = await changes(files);
      expect(Object.keys(changed)).toEqual(['quickstart.mdx']);
      expect(changed['quickstart.mdx']).toBe(`${sample('quickstart.mdx').trimEnd()}\n\n${ending}`);
      expect(result.title).toBe('Add section "Rate limits" to quickstart');
    },
  );

  it('takes the body from the following lines', async () => {
    const files = sampleOverlay();
    await run(
      files,
      'append a section "FAQ" to the "Custom domains" page\n\n- **How long?** Minutes.\n- **Cost?** Free.',
    );
    expect(await files.read('guides/custom-domains.mdx')).toMatch(
      /\n\n## FAQ\n\n- \*\*How long\?\*\* Minutes\.\n- \*\*Cost\?\*\* Free\.\n$/,
    );
  });

  it('changes nothing when the page does not exist, and suggests similar ones', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'append a section "X" to guides/domains with "y"');
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toContain('there is no page `guides/domains`');
    expect(result.reply).toContain('`guides/custom-domains.mdx`');
  });
});

describe('BuiltinAgent: remove a page', () => {
  const linkingPages = [
    'index.mdx',
    'quickstart.mdx',
    'guides/deploy-an-app.mdx',
    'guides/environment-variables.mdx',
  ];

  it('changes nothing while pages link to it, and names them', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'remove the page guides/setup');
    expect(await files.changes()).toEqual([]);
    for (const page of linkingPages) expect(result.reply).toContain(`\`${page}\` (1 link)`);
    expect(result.reply).toContain('4 pages link to `/guides/setup`');
    expect(result.reply).toContain('remove page guides/setup and point its links to <page>');
  });

  it('deletes the page and its navigation entry, and points the links to it where it is told', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'remove the page guides/setup and point its links to quickstart');
    const changed = await changes(files);
    expect(Object.keys(changed).sort()).toEqual(['docs.json', 'guides/setup.mdx', ...linkingPages].sort());
    expect(changed['guides/setup.mdx']).toBeNull();
    expect((await navigationOf(files)).map((entry) => entry.page)).not.toContain('guides/setup');
    for (const page of linkingPages) {
      expect(changed[page]).not.toContain('/guides/setup');
      expect(result.reply).toContain(`\`${page}\` (1 link)`);
    }
    expect(result.reply).toContain('Pointed 4 links to it at `/quickstart` instead, in 4 pages');
    expect(result.title).toBe('Remove page guides/setup');
  });

  it('changes nothing for a page that does not exist', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'delete the page guides/old');
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toContain('there is no page `guides/old`');
  });
});

describe('BuiltinAgent: move a page', () => {
  it('moves the file, renames the navigation entry and repoints every link to it', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'move page guides/setup to guides/getting-started');
    const changed = await changes(files);
    expect(changed['guides/setup.mdx']).toBeNull();
    expect(changed['guides/getting-started.mdx']).toBe(sample('guides/setup.mdx'));
    const pages = (await navigationOf(files)).map((entry) => entry.page);
    expect(pages.indexOf('guides/getting-started')).toBe(3);
    expect(changed['index.mdx']).toBe(
      sample('index.mdx').replace('href="/guides/setup"', 'href="/guides/getting-started"'),
    );
    expect(changed['quickstart.mdx']).toContain('[set up your workspace](/guides/getting-started)');
    for (const text of Object.values(changed)) expect(text ?? '').not.toContain('/guides/setup');
    expect(result.reply).toContain('Updated 4 links in 4 pages');
    expect(result.title).toBe('Move page guides/setup to guides/getting-started');
  });

  it("keeps anchors and relative links, and rewrites the moved page's own relative links", async () => {
    const files = sampleOverlay();
    await run(files, [
      'move page guides/deploy-an-app to guides/deploying',
      'move page guides/setup to teams/setup',
    ]);
    expect(await files.read('changelog.mdx')).toContain('](/guides/deploying#deploy-on-push)');
    expect(await files.read('teams/setup.mdx')).toContain(
      '[Deploy an app](../guides/deploying#deploy-on-push)',
    );
    expect(await files.read('guides/deploying.mdx')).toContain('[Set up your workspace](/teams/setup)');
  });

  it('repoints frontmatter links (Starlight hero actions) and bare file links, keeping their form', async () => {
    const home =
      '---\ntitle: Home\nhero:\n  actions:\n    - text: Start\n      link: /guides/setup/\n---\n\nSee [setup](guides/setup.mdx).\n';
    const files = sampleOverlay('', { 'home.mdx': home });
    await run(files, 'move page guides/setup to guides/start');
    expect(await files.read('home.mdx')).toBe(
      home
        .replace('link: /guides/setup/', 'link: /guides/start/')
        .replace('](guides/setup.mdx)', '](guides/start.mdx)'),
    );
  });

  it('leaves example links in code blocks and inline code alone', async () => {
    const page =
      '# Linking\n\nSee [Setup](/guides/setup).\n\n```mdx\n[Setup](/guides/setup)\n```\n\nWrite `[x](/guides/setup)`.\n';
    const files = sampleOverlay('', { 'linking.mdx': page });
    await run(files, 'move page guides/setup to guides/start');
    expect(await files.read('linking.mdx')).toBe(
      page.replace('See [Setup](/guides/setup)', 'See [Setup](/guides/start)'),
    );
  });

  it('says when the navigation lives in `$ref` files it does not edit', async () => {
    const files = overlayOf([
      ['docs.json', JSON.stringify({ navigation: { $ref: './navigation.json' } })],
      ['a.mdx', '# A\n'],
    ]);
    const result = await run(files, 'move page a to b');
    expect(result.reply).toContain(
      'It was not listed in `docs.json`. Parts of its navigation are not edited here: parts of it live in files included with `$ref`.',
    );
    expect(Object.keys(await changes(files)).sort()).toEqual(['a.mdx', 'b.mdx']);
  });

  it('refuses when the destination exists', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'rename the page guides/setup to quickstart');
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toContain('`quickstart.mdx` already exists');
  });
});

describe('BuiltinAgent: repoint links', () => {
  it('repoints links from one path to another existing page', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'repoint links from /installation to /quickstart');
    const changed = await changes(files);
    expect(Object.keys(changed).sort()).toEqual(['changelog.mdx', 'quickstart.mdx']);
    expect(changed['changelog.mdx']).toContain('[acme CLI](/quickstart)');
    expect(result.title).toBe('Repoint links from /installation to /quickstart');
  });

  it('refuses a destination that is not a page', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'repoint links from /installation to /nowhere');
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toContain('there is no page `/nowhere`');
  });

  it('finds the one page a gone target became, by last path segment', async () => {
    const files = sampleOverlay();
    await files.move('guides/setup.mdx', 'teams/setup.mdx');
    const result = await run(files, 'fix links to /guides/setup');
    expect(await files.read('index.mdx')).toContain('href="/teams/setup"');
    expect(result.reply).toContain('Repointed 4 links from `/guides/setup` to `/teams/setup` in 4 pages');
  });

  it('finds it by title', async () => {
    const files = sampleOverlay('', { 'notes.mdx': 'Read [this](/old/set-up-your-workspace).\n' });
    await run(files, 'repoint links to /old/set-up-your-workspace');
    expect(await files.read('notes.mdx')).toBe('Read [this](/guides/setup).\n');
  });

  it('changes nothing and lists the candidates when several pages match', async () => {
    const files = sampleOverlay('', {
      'teams/setup.mdx': '---\ntitle: Teams\n---\n',
      'a.mdx': '[x](/old/setup)\n',
    });
    await files.move('guides/setup.mdx', 'ops/setup.mdx');
    const result = await run(files, 'fix links to /old/setup');
    expect((await files.changes()).map((change) => change.path)).toEqual([
      'guides/setup.mdx',
      'ops/setup.mdx',
    ]);
    expect(result.reply).toContain('several pages could replace `/old/setup`');
    expect(result.reply).toContain('`/ops/setup`');
    expect(result.reply).toContain('`/teams/setup`');
  });

  it('refuses when the target still exists or nothing links to it', async () => {
    const files = sampleOverlay();
    expect((await run(files, 'fix links to /quickstart')).reply).toContain('`/quickstart` is still a page');
    expect((await run(files, 'fix links to /gone')).reply).toContain('no page links to `/gone`');
    expect(await files.changes()).toEqual([]);
  });
});

describe('BuiltinAgent: instructions it does not understand', () => {
  it('changes nothing, lists the forms with examples and names the model setting', async () => {
    const files = sampleOverlay();
    const result = await run(files, 'make the quickstart friendlier');
    expect(await files.changes()).toEqual([]);
    expect(result.title).toBeUndefined();
    expect(result.reply).toContain('I did not understand "make the quickstart friendlier"');
    for (const { example } of INSTRUCTION_FORMS) expect(result.reply).toContain(example);
    expect(result.reply).toContain('DOCWRIGHT_MODEL=openai:<model>');
    expect(result.reply).toContain('anthropic:<model>');
  });

  it('applies several instructions in order, each on the result of the last', async () => {
    const files = sampleOverlay();
    const result = await run(files, [
      'add a page guides/webhooks titled "Webhooks"',
      'append a section "Payload" to guides/webhooks with "JSON."',
      'summarise everything',
      'replace "Webhooks" with "Event hooks"',
    ]);
    expect(await files.read('guides/webhooks.mdx')).toBe(
      '---\ntitle: "Event hooks"\n---\n\n## Payload\n\nJSON.\n',
    );
    expect(result.reply).toContain('3. Not understood: "summarise everything"; nothing changed for it.');
    expect(result.title).toBe('Add page guides/webhooks (+2 more edits)');
  });

  it('answers each of several instructions on a line of its own, details below', async () => {
    const result = await run(sampleOverlay(), [
      'remove the page changelog and point its links to quickstart',
      'do something clever',
    ]);
    const [first, second] = result.reply.split('\n');
    expect(first).toMatch(/^1\. Done: Removed `changelog.mdx`\./);
    expect(second).toBe('2. Not understood: "do something clever"; nothing changed for it.');
    expect(result.reply).toContain('**1.**\n\nPointed 1 link to it at `/quickstart` instead');
    for (const { example } of INSTRUCTION_FORMS) expect(result.reply).toContain(example);
    expect(result.title).toBe('Remove page changelog');
  });

  it('answers prose over several lines, none of them an edit, once', async () => {
    const result = await run(sampleOverlay(), [
      'Readers asked about something the docs do not answer well.',
      'How do I connect Confluence?',
      'Is there a Confluence integration?',
    ]);
    expect(result.reply.split('\n\n')[0]).toBe(
      'I did not understand the request ("Readers asked about something the docs do not answer well." and 2 more lines): none of its lines is an edit I can make, so I changed nothing.',
    );
    expect(result.reply).not.toContain('Not understood');
    expect(result.reply).toContain('Free-form requests need a model');
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const agent = new BuiltinAgent();
    const files = sampleOverlay();
    const input = {
      jobId: 'j',
      instructions: ['replace "Acme" with "B"'],
      history: [],
      files,
      policy: policyFor(),
    };
    await expect(agent.run({ ...input, signal: controller.signal, logger: silentLogger })).rejects.toThrow();
    expect(await files.changes()).toEqual([]);
  });
});

describe('BuiltinAgent: docs root', () => {
  const outside = {
    'README.md': 'Acme Cloud README\n',
    '.github/workflows/docs.md': 'Acme Cloud workflow notes\n',
    'docs/.github/notes.md': 'Acme Cloud\n',
  };

  it('edits only files under the docs root, never dot-folders', async () => {
    const files = sampleOverlay('docs', outside);
    await run(files, 'replace "Acme Cloud" with "Acme Platform"', 'docs');
    const changed = Object.keys(await changes(files));
    expect(changed.length).toBeGreaterThanOrEqual(5);
    expect(changed.every((file) => file.startsWith('docs/') && !file.includes('.github'))).toBe(true);
  });

  it('finds pages and docs.json relative to the docs root', async () => {
    const files = sampleOverlay('docs', outside);
    await run(
      files,
      ['add a page guides/webhooks titled "Webhooks"', 'move page /guides/setup to guides/start'],
      'docs/',
    );
    const changed = await changes(files);
    expect(Object.keys(changed).sort()).toEqual([
      'docs/docs.json',
      'docs/guides/deploy-an-app.mdx',
      'docs/guides/environment-variables.mdx',
      'docs/guides/setup.mdx',
      'docs/guides/start.mdx',
      'docs/guides/webhooks.mdx',
      'docs/index.mdx',
      'docs/quickstart.mdx',
    ]);
    expect((await navigationOf(files, 'docs/docs.json')).map((entry) => entry.page)).toContain(
      'guides/webhooks',
    );
  });

  it('refuses pages outside the docs root or in .github', async () => {
    const files = sampleOverlay('docs', outside);
    for (const instruction of [
      'add a page ../escape titled "x"',
      'add a page .github/workflows/evil titled "x"',
      'add a page guides/notes.txt titled "x"',
      'remove the page README',
      'append a section "x" to .github/notes with "y"',
    ]) {
      const result = await run(files, instruction, 'docs');
      expect(result.title, instruction).toBeUndefined();
    }
    expect(await files.changes()).toEqual([]);
  });
});

describe.skipIf(!hasMintlifyDocs)(
  'BuiltinAgent on the Mintlify docs (../shared/corpora/mintlify-docs)',
  () => {
    const corpus = hasMintlifyDocs ? readTree(mintlifyDocs) : new Map<string, Buffer>();
    const isPage = (file: string) =>
      /\.mdx?$/.test(file) && !file.split('/').some((part) => part.startsWith('.'));

    it('replaces text across the real site, leaving dot-folders alone', async () => {
      const files = overlayOf(corpus);
      const result = await run(files, 'replace "mint dev" with "mint preview"');
      const expected = [...corpus].filter(
        ([file, content]) =>
          isPage(file) && file !== 'README.md' && content.toString('utf8').includes('mint dev'),
      );
      const changed = await changes(files);
      expect(expected.length).toBeGreaterThan(10);
      expect(Object.keys(changed).sort()).toEqual(expected.map(([file]) => file).sort());
      const total = expected.reduce(
        (sum, [, content]) => sum + count(content.toString('utf8'), 'mint dev'),
        0,
      );
      expect(result.reply).toContain(`${total} occurrences in ${expected.length} files`);
      // The repository's README is no docs page: left alone, and the reply says why.
      expect(result.reply).toContain('`README.md`: README.md is a repository file');
    });

    it('moves a real page, renaming its navigation entry and repointing real links', async () => {
      const files = overlayOf(corpus);
      const result = await run(files, 'move page quickstart to get-started');
      const changed = await changes(files);
      expect(changed['quickstart.mdx']).toBeNull();
      expect(changed['get-started.mdx']).toBe(corpus.get('quickstart.mdx')?.toString('utf8'));
      const pages = (await navigationOf(files)).map((entry) => entry.page);
      expect(pages).toContain('get-started');
      expect(pages).not.toContain('quickstart');
      expect(changed['index.mdx']).toContain('href="/get-started"');
      expect(changed['cli/install.mdx']).toContain('](/get-started#set-up-mintlify-for-the-user)');
      // The syntax example in a code block keeps /quickstart; the rendered link after it moves.
      expect(changed['create/text.mdx']).toContain('```mdx\n[Quickstart](/quickstart)\n');
      expect(changed['create/text.mdx']).toContain('[Quickstart](/get-started)<br />');
      // Translations keep their own page, and tooling folders are never edited.
      expect(changed['fr/quickstart.mdx']).toBeUndefined();
      expect(Object.keys(changed).some((file) => file.startsWith('.'))).toBe(false);
      expect(result.reply).toMatch(/Updated \d+ links in \d+ pages/);
    });
  },
);

if (!hasMintlifyDocs) {
  describe('BuiltinAgent on the Mintlify docs', () => {
    it.skip(`skipped: ${mintlifyDocs} is absent`, () => {});
  });
}

describe('BuiltinAgent on a site whose navigation is computed by code', () => {
  it('adds the page and says the navigation was left alone, naming what computes it', async () => {
    const config =
      "import { defineConfig } from 'vitepress';\nimport { generateSidebar } from './sidebar.js';\n\nexport default defineConfig({ themeConfig: { sidebar: generateSidebar() } });\n";
    const files = overlayOf([
      ['docs/.vitepress/config.mts', config],
      ['docs/guide/setup.md', '# Setup\n'],
    ]);
    const policy = policyFor('docs', { siteFiles: ['docs/.vitepress/config.mts'] });
    const result = await new BuiltinAgent().run({
      jobId: 'job_test',
      instructions: ['add a page guide/webhooks titled "Webhooks" with "Get notified."'],
      history: [],
      files,
      policy,
      signal: new AbortController().signal,
      logger: silentLogger,
    });
    expect(Object.keys(await changes(files))).toEqual(['docs/guide/webhooks.md']);
    expect(result.reply).toContain('Added `guide/webhooks.md` titled "Webhooks".');
    expect(result.reply).toContain('It is not added to `config.mts`');
    expect(result.reply).toContain('generateSidebar()');
  });
});

describe('BuiltinAgent on a navigation the framework generates', () => {
  async function addTo(files: Overlay, docsRoot: string, siteFile: string) {
    return new BuiltinAgent().run({
      jobId: 'job_test',
      instructions: ['add a page guides/webhooks titled "Webhooks" with "Get notified."'],
      history: [],
      files,
      policy: policyFor(docsRoot, { siteFiles: [siteFile] }),
      signal: new AbortController().signal,
      logger: silentLogger,
    });
  }

  it('places a Docusaurus page after its siblings by sidebar_position, and leaves sidebars.js alone', async () => {
    const files = overlayOf([
      ['website/docusaurus.config.js', "module.exports = { presets: [['classic', { docs: {} }]] };\n"],
      ['website/sidebars.js', "module.exports = { docs: [{ type: 'autogenerated', dirName: '.' }] };\n"],
      ['website/docs/guides/setup.md', '---\nsidebar_position: 1\n---\n# Setup\n'],
      ['website/docs/guides/deploy.md', '---\nsidebar_position: 2\n---\n# Deploy\n'],
    ]);
    await addTo(files, 'website/docs', 'website/sidebars.js');
    const changed = await changes(files);
    expect(Object.keys(changed)).toEqual(['website/docs/guides/webhooks.md']);
    expect(changed['website/docs/guides/webhooks.md']).toBe(
      '---\ntitle: "Webhooks"\nsidebar_position: 3\n---\n\nGet notified.\n',
    );
  });

  it('gives a Starlight page the next sidebar order in an autogenerated group', async () => {
    const files = overlayOf([
      [
        'docs/astro.config.mjs',
        "import starlight from '@astrojs/starlight';\nexport default { integrations: [starlight({ title: 'X', sidebar: [{ label: 'Guides', autogenerate: { directory: 'guides' } }] })] };\n",
      ],
      ['docs/src/content/docs/guides/setup.md', '---\ntitle: Setup\nsidebar:\n  order: 4\n---\n'],
    ]);
    await addTo(files, 'docs/src/content/docs', 'docs/astro.config.mjs');
    const changed = await changes(files);
    expect(Object.keys(changed)).toEqual(['docs/src/content/docs/guides/webhooks.md']);
    expect(changed['docs/src/content/docs/guides/webhooks.md']).toContain('sidebar:\n  order: 5\n');
  });
});
