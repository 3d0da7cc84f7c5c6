import { describe, expect, it } from 'vitest';
import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';

const page = (title: string, body: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${body}\n`;

/** A small site with the shapes that trip retrieval: templated siblings, identifiers, snippets. */
const files = [
  {
    path: 'index.mdx',
    content: page('Introduction', 'Acme builds voice agents. Start with the quickstart.'),
  },
  {
    path: 'quickstart.mdx',
    content: page('Quickstart', 'Acme quickstart: install Acme and run your first agent with acme run.'),
  },
  {
    path: 'guides/interruptions.mdx',
    content: page(
      'Interruptions',
      'When the user speaks over the agent, the agent stops talking and listens.',
    ),
  },
  {
    path: 'guides/muting.mdx',
    content: page(
      'User input muting',
      'Mute the user while the agent speaks its greeting, so the agent is not interrupted.',
    ),
  },
  {
    path: 'cloud/secrets.mdx',
    content: page(
      'Secrets',
      'Store provider credentials as secrets: set OPENAI_API_KEY in a secret set and deploy.',
    ),
  },
  {
    path: 'cloud/errors.mdx',
    content: page(
      'Error codes',
      '## PCC_INVALID_IMAGE_PLATFORM\n\nThe image platform is not supported: build for linux/arm64.\n\n## PCC_MISSING_SECRET\n\nA secret set is missing.',
    ),
  },
  {
    path: 'guides/api-keys.mdx',
    content: page('Image generation', 'The image api returns a key for each invalid platform request.'),
  },
  ...['docker-hub', 'aws-ecr', 'gcp-artifact'].map((registry) => ({
    path: `cloud/registries/${registry}.mdx`,
    content: page(
      `Deploy from ${registry}`,
      `Push your agent image to ${registry}. Create a pull secret with your registry credentials, ` +
        'reference the image in your deployment configuration, then deploy the agent with the CLI and ' +
        'check that the agent starts and serves sessions from the image you pushed to the registry. ' +
        'Rotate the pull secret when the registry credentials change, and keep the image tag in the ' +
        'deployment configuration in step with the tag you pushed, so that new sessions start the ' +
        'version you expect and old sessions drain before the previous image is removed.',
    ),
  })),
  {
    path: 'cloud/registries/overview.mdx',
    content: page(
      'Container registries',
      'Agents run from images in a registry you choose: public or private.',
    ),
  },
  {
    path: 'deploy/cloudflare.mdx',
    content: page(
      'Cloudflare',
      'import Steps from "/snippets/subpath-steps.mdx";\n\nRoute traffic with a Worker.\n\n<Steps />',
    ),
  },
  { path: 'snippets/subpath-steps.mdx', content: 'Enable the Host at toggle and enter your base path.' },
  { path: 'drafts/secret-plan.mdx', content: page('Draft', 'Unpublished roadmap for voice agents.') },
  {
    path: 'internal.mdx',
    content: page('Internal notes', 'Voice agent escalation roster.', 'noindex: true\n'),
  },
  {
    path: 'zh/guides/domain.mdx',
    content: page('自定义域名', '在控制台中添加自定义域名，然后配置DNS记录。'),
  },
  { path: 'zh/guides/search.mdx', content: page('搜索', '搜索框会显示最相关的页面。') },
];

const navigation = {
  name: 'Acme',
  navigation: {
    languages: [
      { language: 'en', groups: [{ group: 'Get started', pages: ['index', 'quickstart'] }] },
      { language: 'zh', groups: [{ group: '开始', pages: ['zh/guides/domain', 'zh/guides/search'] }] },
    ],
  },
};

const index = DocsIndex.build(files, { navigation, mintignore: '# drafts are not published\ndrafts/\n' });
const paths = (query: string, options = {}) =>
  index.search(query, { limit: 5, ...options }).map((hit) => hit.urlPath);

describe('retrieval on reader wording', () => {
  it('finds what the docs call by another name ("ignore", "cut off")', () => {
    expect(paths('make the agent ignore what the user says during the greeting')[0]).toBe('/guides/muting');
    expect(paths('can the user cut off the agent?')[0]).toBe('/guides/interruptions');
  });

  it('keeps underscore identifiers whole: they find their page, not every page with their parts', () => {
    expect(paths('what does PCC_INVALID_IMAGE_PLATFORM mean')[0]).toBe('/cloud/errors');
    expect(paths('where do I put OPENAI_API_KEY')[0]).toBe('/cloud/secrets');
    // The parts are still searchable on their own.
    expect(paths('openai api key')).toContain('/cloud/secrets');
  });

  it('answers a question that is only the product name with the landing page', () => {
    expect(paths('What is Acme?')[0]).toBe('/');
  });

  it('keeps the landing page out of a search it is not part of', () => {
    expect(paths('What is Acme?', { withinPaths: ['/quickstart'] })).toEqual(['/quickstart']);
    // The landing page is in "Get started", not in the group the reader filtered on.
    expect(paths('What is Acme?', { filter: { groups: ['开始'] } })).not.toContain('/');
  });

  it('answers "What is Acme?" in a thread whose last answer cited other pages with the landing page', () => {
    // A question that is only the product's name is on every page, the cited ones too: it is a
    // question of its own, never a follow-up of the thread.
    const conversation = [
      { role: 'user' as const, text: 'can the user cut off the agent?' },
      {
        role: 'assistant' as const,
        text: 'When the user speaks over the agent, the agent stops talking. [1]',
      },
      { role: 'user' as const, text: 'What is Acme?' },
    ];
    const retrieval = retrieve(index, {
      conversation,
      retrievalPageSize: 1,
      citedPaths: ['/guides/interruptions'],
    });
    expect(retrieval.followUp).toBe(false);
    expect(retrieval.passages.map((passage) => passage.urlPath)).toEqual(['/']);
  });

  it('shows one section per page and folds near-duplicate pages', () => {
    const hits = index.search('deploy the agent image from a registry', { limit: 5 });
    const urlPaths = hits.map((hit) => hit.urlPath);
    expect(new Set(urlPaths).size).toBe(urlPaths.length);
    const registryGuides = urlPaths.filter((path) => /docker-hub|aws-ecr|gcp-artifact/.test(path));
    expect(registryGuides).toHaveLength(1);
    expect(urlPaths).toContain('/cloud/registries/overview');
    // The guide named in the question is the one shown.
    expect(paths('deploy from aws-ecr')[0]).toBe('/cloud/registries/aws-ecr');
  });

  it('finds a page by the text of a snippet it imports', () => {
    expect(paths('enable the host at toggle')[0]).toBe('/deploy/cloudflare');
    expect(index.stats.pages).toBe(14);
  });

  it('finds the accordion of a troubleshooting page that answers, linked at its heading', () => {
    const accordions = [
      ['Requests from the playground fail', 'Configure CORS on your server so browsers may call it.'],
      ['Pages are blank', 'Validate the OpenAPI file with mint validate.'],
      ['Navigation entries are missing', 'Check the openapi field of each navigation group.'],
    ];
    const site = DocsIndex.build([
      {
        path: 'playground/troubleshooting.mdx',
        content: page(
          'Troubleshooting',
          `## Common problems\n\n<AccordionGroup>\n${accordions
            .map(([title, text]) => `<Accordion title="${title}">\n${text}\n</Accordion>`)
            .join('\n')}\n</AccordionGroup>`,
        ),
      },
      {
        path: 'playground/overview.mdx',
        content: page('Playground', 'The playground sends requests to your API.'),
      },
    ]);
    const [hit] = site.search('playground requests fail with a CORS error', { limit: 1 });
    expect(hit).toMatchObject({
      urlPath: '/playground/troubleshooting',
      heading: 'Requests from the playground fail',
      url: '/playground/troubleshooting#common-problems',
    });
    expect(hit!.body).not.toContain('mint validate');
    site.close();
  });

  it('leaves out pages that .mintignore excludes and pages marked noindex', () => {
    expect(index.page('/drafts/secret-plan')).toBeUndefined();
    expect(index.page('/internal')).toBeUndefined();
    expect(paths('escalation roster')).toEqual([]);
  });

  it('leaves out pages marked searchable: false or hidden: true, unless the site indexes hidden pages', () => {
    const marked = [
      { path: 'notes.mdx', content: page('Notes', 'The escalation roster.', 'searchable: false\n') },
      { path: 'contracts.mdx', content: page('Contracts', 'Procurement and escalation.', 'hidden: true\n') },
      { path: 'broken.mdx', content: `---\ntitle: [Broken\nhidden: true\n---\n\nEscalation.\n` },
      { path: 'guide.mdx', content: page('Guide', 'Escalation to a human agent.', 'hidden: false\n') },
    ];
    const found = (seo?: unknown) => {
      const site = DocsIndex.build(marked, { navigation: { ...navigation, seo } });
      const urlPaths = site.search('escalation', { limit: 5 }).map((hit) => hit.urlPath);
      site.close();
      return urlPaths.sort();
    };
    expect(found()).toEqual(['/guide']);
    expect(found({ indexing: 'navigable' })).toEqual(['/guide']);
    expect(found({ indexing: 'all' })).toEqual(['/broken', '/contracts', '/guide']);
  });

  it('counts the words no page holds in the language a search would search', () => {
    expect(index.unknownWordShare('搜索框')).toBe(1);
    expect(index.unknownWordShare('搜索框', { currentPath: '/zh/guides/search' })).toBe(0);
    expect(index.unknownWordShare('搜索框', { filter: { language: 'zh' } })).toBe(0);
  });

  it('searches Chinese text without spaces between words', () => {
    expect(paths('如何配置DNS记录', { filter: { language: 'zh' } })[0]).toBe('/zh/guides/domain');
    expect(paths('自定义域名', { filter: { language: 'zh' } })[0]).toBe('/zh/guides/domain');
    expect(index.search('自定义域名', { filter: { language: 'zh' } })[0]!.body).toContain('添加自定义域名');
  });

  it('rates a question with two common words and rare unknown ones as barely covered', () => {
    const [onTopic] = index.search('where do I store my secrets for deploy');
    const [offTopic] = index.search('how long should I proof sourdough before I deploy the agent');
    expect(onTopic!.relevance).toBeGreaterThan(0.8);
    expect(offTopic!.relevance).toBeLessThan(0.5);
    // The reader's own address is theirs, not a word the docs lack.
    const [addressed] = index.search('store secrets for deploy on agents.mycompany.com');
    expect(addressed!.relevance).toBeGreaterThan(0.8);
  });

  it('counts what a page says it is about apart from words its body holds in passing', () => {
    const hitOf = (query: string) =>
      index.search(query, { limit: 10 }).find((hit) => hit.urlPath === '/cloud/secrets');
    // The title names secrets; "store" and "provider" are only in the body.
    expect(hitOf('secrets')!.about).toBe(1);
    const passing = hitOf('store provider')!;
    expect(passing.relevance).toBe(1);
    expect(passing.about).toBe(0);
  });

  it("does not count a reader's phrase as a word the docs lack where the site has none of its words", () => {
    const small = DocsIndex.build([
      {
        path: 'muting.mdx',
        content: page('Muting', 'Mute the user during the middle part of the greeting.'),
      },
      { path: 'voices.mdx', content: page('Voices', 'Pick a voice for the greeting.') },
    ]);
    // "in the middle of" is also searched as the docs' "mid", which this site never writes: the
    // question's words are all on the page all the same.
    const question = 'mute the user in the middle of the greeting';
    expect(small.unknownWords(question)).toEqual([]);
    expect(small.search(question)[0]?.relevance).toBe(1);
  });

  it('ranks the pages a conversation cited higher for a follow-up', () => {
    const plain = paths('what about the platform');
    const cited = paths('what about the platform', { citedPaths: ['/guides/api-keys'] });
    expect(plain[0]).toBe('/cloud/errors');
    expect(cited[0]).toBe('/guides/api-keys');
  });
});

describe('retrieval of the section that answers', () => {
  const site = DocsIndex.build([
    {
      path: 'concepts.mdx',
      content: page(
        'Concepts',
        '## Jobs\n\nA job is one change, worked on in the background.\n\n### States\n\n' +
          '| status | meaning |\n| --- | --- |\n| `active` | a run is going on |\n| `completed` | the last run succeeded |',
      ),
    },
    {
      path: 'architecture.mdx',
      content: page(
        'Architecture',
        'The job statuses are defined in the protocol layer, the job runner in the engine.',
      ),
    },
    {
      path: 'regions.mdx',
      content: page(
        'Regions',
        'Agents run in one region at a time.\n\n## Deploy agents to a region\n\nAgents run in the region you pass to the deploy command.\n\n' +
          '## Deploy agents to several regions\n\nAgents run in several regions when you repeat the deploy for each.\n\n' +
          '## Available regions\n\nOne of:\n\n- **us-west**: Oregon\n- **eu-central**: Frankfurt',
      ),
    },
    {
      path: 'tracing.mdx',
      content: page(
        'Tracing',
        'Traces follow the pipeline.\n\n## Trace structure\n\nA trace of the pipeline is a tree:\n\n```\nconversation\n├── turn\n└── turn\n```\n\n' +
          '## Overview of the pipeline spans\n\nEach pipeline turn is a span with the pipeline stage inside it.\n\n' +
          '## Setup\n\nTurn it on in code:\n\n```python\nworker = PipelineWorker(enable_tracing=True)\n```',
      ),
    },
  ]);
  const ask = (question: string) =>
    retrieve(site, { conversation: [{ role: 'user', text: question }], retrievalPageSize: 3 }).passages;

  it('finds a word whose plural the stemmer cuts otherwise ("statuses" and a table headed "status")', () => {
    const [first] = site.search('the list of job statuses');
    expect(first?.urlPath).toBe('/concepts');
    expect(first?.heading).toBe('States');
  });

  it('brings the section that lists what a "which" question asks for, not one that only names it', () => {
    const headings = ask('which regions can agents run in')
      .filter((passage) => passage.urlPath === '/regions')
      .map((passage) => passage.heading);
    expect(headings).toContain('Available regions');
  });

  it('brings the opening of the page a question of no particular form is about', () => {
    const hooks = DocsIndex.build([
      {
        path: 'react.mdx',
        content: page(
          'React SDK',
          'The React SDK has two hooks: usePipecatClient and useTransportState.\n\n' +
            '## useTransportState\n\nThe hook returns the client transport state; the SDK client re-renders on change.\n\n' +
            '## Errors\n\nA hook used outside the client provider throws: wrap the client SDK app first.',
        ),
      },
      { path: 'other.mdx', content: page('Client', 'The client connects to the server.') },
    ]);
    const passages = retrieve(hooks, {
      conversation: [{ role: 'user', text: 'hooks for the client SDK' }],
      retrievalPageSize: 2,
    }).passages;
    expect(passages.some((passage) => passage.urlPath === '/react' && passage.anchor === '')).toBe(true);
  });

  it('brings the opening of the first page for a yes-or-no question its title does not name', () => {
    const client = DocsIndex.build([
      {
        path: 'client-constructor.mdx',
        content: page(
          'Client constructor',
          // The opening says what is asked; the sections repeat the question's words more often.
          'Every option is optional but one: a transport instance must be provided.\n\n' +
            '## transport\n\nThe client transport: the transport the client uses to reach the bot, given to the client.\n\n' +
            '## callbacks\n\nClient callbacks the client runs on client transport events.',
        ),
      },
      {
        path: 'other.mdx',
        content: page('Transports', 'A transport carries audio between the client and the bot.'),
      },
    ]);
    const passages = retrieve(client, {
      conversation: [{ role: 'user', text: 'do I have to give the client a transport?' }],
      retrievalPageSize: 2,
    }).passages;
    expect(passages[0]?.urlPath).toBe('/client-constructor');
    expect(passages[0]?.anchor).not.toBe('');
    expect(
      passages.some((passage) => passage.urlPath === '/client-constructor' && passage.anchor === ''),
    ).toBe(true);
  });

  it('brings the code of a task, not a block that draws a tree', () => {
    const headings = ask('trace the pipeline spans')
      .filter((passage) => passage.urlPath === '/tracing')
      .map((passage) => passage.heading);
    expect(headings).toContain('Setup');
  });

  it('brings the text of the section a retrieved subsection of the first page sits in', () => {
    const domains = DocsIndex.build([
      {
        path: 'custom-domain.mdx',
        content: page(
          'Custom domain',
          'Serve the docs at your own domain.\n\n## Configure your DNS\n\nAdd a CNAME record that points to cname.acme.dev.\n\n' +
            '### Apex domains\n\nAn apex domain such as example.com cannot hold that record: point an apex domain with an ALIAS record.\n\n' +
            '### Propagation\n\nRecords take up to a day to reach every resolver.',
        ),
      },
      { path: 'other.mdx', content: page('Hosting', 'The docs are hosted for you.') },
    ]);
    const passages = retrieve(domains, {
      conversation: [{ role: 'user', text: 'point my apex domain at the docs' }],
      retrievalPageSize: 2,
    }).passages.filter((passage) => passage.urlPath === '/custom-domain');
    expect(passages[0]?.heading).toBe('Apex domains');
    expect(passages.map((passage) => passage.heading)).toContain('Configure your DNS');
  });

  it('leaves a page whose retrieved sections have no parent as it is', () => {
    const headings = ask('which regions can agents run in')
      .filter((passage) => passage.urlPath === '/regions')
      .map((passage) => passage.heading);
    expect(new Set(headings).size).toBe(headings.length);
  });

  it('brings the section that states the default a question about leaving something unset asks for', () => {
    const avatars = DocsIndex.build([
      {
        path: 'avatar.mdx',
        content: page(
          'Avatar video',
          'The avatar service shows an avatar that speaks with the voice of the bot.\n\n' +
            '## Pick an avatar\n\nPick an avatar in the dashboard: each avatar shows a face, and you can pick another avatar at any time.\n\n' +
            '## Streaming\n\nThe avatar streams video while it speaks; the avatar you pick shows in the call.\n\n' +
            '## Configuration\n\n| parameter | type | default | description |\n| --- | --- | --- | --- |\n' +
            '| `avatar_id` | `str` | `"Shawn"` | The face to use. |\n| `quality` | `str` | `"high"` | Video quality. |',
        ),
      },
      { path: 'other.mdx', content: page('Voices', 'A voice speaks for the bot.') },
    ]);
    const retrieved = (question: string) =>
      retrieve(avatars, { conversation: [{ role: 'user', text: question }], retrievalPageSize: 2 })
        .passages.filter((passage) => passage.urlPath === '/avatar')
        .map((passage) => passage.heading);
    expect(retrieved("which avatar does it show if I don't pick one")).toContain('Configuration');
    // A question that does not ask about what is left unset keeps the sections its words rank.
    expect(retrieved('how do I pick the avatar it shows')).not.toContain('Configuration');
  });

  it('brings the section that defines the term a "what does" question asks about', () => {
    const flows = DocsIndex.build([
      {
        path: 'strategies.mdx',
        content: page(
          'Context strategies',
          'Flows manage the context between nodes.\n\n## Strategy types\n\n' +
            '1. **APPEND**: new messages are added to the context.\n2. **RESET_WITH_SUMMARY**: the context is cleared and a summary of it is kept.\n\n' +
            '## When to use each\n\nUse `RESET_WITH_SUMMARY` in long flows. Prefer `RESET_WITH_SUMMARY` when the flows run long.\n\n' +
            '## Configuration\n\nSet `RESET_WITH_SUMMARY` in flows with `ContextStrategy.RESET_WITH_SUMMARY` in the flows config.',
        ),
      },
      { path: 'other.mdx', content: page('Flows', 'Flows move a conversation between nodes.') },
    ]);
    const retrieved = (question: string) =>
      retrieve(flows, { conversation: [{ role: 'user', text: question }], retrievalPageSize: 2 })
        .passages.filter((passage) => passage.urlPath === '/strategies')
        .map((passage) => passage.heading);
    expect(retrieved('what does RESET_WITH_SUMMARY do in flows')).toContain('Strategy types');
    // Only a question asking what something is or does: a task is answered by its code.
    expect(retrieved('use RESET_WITH_SUMMARY in flows')).not.toContain('Strategy types');
  });
});
