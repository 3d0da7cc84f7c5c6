import { describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';
import { MAX_QUERY_WORD_LENGTH, queryConcepts, queryTerms } from '../src/docs/fts-query.js';
import { identifierPartsText } from '../src/docs/search-text.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Pages that name things the docs' way, while readers ask in their own words. */
const index = DocsIndex.build([
  {
    path: 'client/choosing-a-transport.mdx',
    content: page('Choosing a transport', 'Compare the transports before you pick one for production.'),
  },
  {
    path: 'client/webrtc.mdx',
    content: page(
      'WebRTC transport',
      'The WebRTC transport sends audio over WebRTC. WebRTC needs a TURN server.',
    ),
  },
  {
    path: 'client/websocket.mdx',
    content: page(
      'WebSocket transport',
      'The WebSocket transport streams audio over WebSockets to your server.',
    ),
  },
  {
    path: 'create/reusable-snippets.mdx',
    content: page('Reusable snippets', 'Write content once in a snippet file and import it into any page.'),
  },
  {
    path: 'create/text.mdx',
    content: page('Text', 'Format a paragraph with bold, italics and links on your pages.'),
  },
  {
    path: 'dashboard/audit-logs.mdx',
    content: page(
      'Audit logs',
      'Every action a member takes in the dashboard is recorded with its author and time.',
    ),
  },
  {
    path: 'dashboard/overview.mdx',
    content: page('Dashboard', 'The dashboard shows what changed in your latest deployment.'),
  },
  {
    path: 'api/trigger.mdx',
    content: page('Trigger an update', 'POST to this endpoint to rebuild the site.'),
  },
  {
    path: 'deploy/gitlab.mdx',
    content: page('GitLab', 'Connect a GitLab repository to deploy the docs on every push to GitLab.'),
  },
  {
    path: 'deploy/gitlab-self-hosted.mdx',
    content: page('Self-hosted GitLab', 'Add the address of your instance and an access token.'),
  },
  {
    path: 'telephony/dial-in.mdx',
    content: page('Dial-in', 'The bot answers when a caller dials its phone number with Daily.'),
  },
  {
    path: 'telephony/dial-out.mdx',
    content: page('Dial-out', 'Start a session where the bot dials a phone number with Daily.'),
  },
  {
    path: 'deploy/ci.mdx',
    content: page('CI checks', 'Checks run on every new build in your pipeline.'),
  },
  {
    path: 'assistant/use.mdx',
    content: page('Use the assistant', 'Open the assistant from the search bar or with a keyboard shortcut.'),
  },
  {
    path: 'create/search-bar.mdx',
    content: page('Search', 'Readers find pages from the search bar at the top of the page.'),
  },
]);

const first = (question: string) => index.search(question, { limit: 3 })[0]?.urlPath;

describe("readers' wording finds the docs' words", () => {
  it('a question comparing two options finds the page that compares them', () => {
    expect(first('should I use WebRTC or WebSockets')).toBe('/client/choosing-a-transport');
  });

  it('copy-pasting the same paragraph finds reusable snippets', () => {
    expect(first('reuse the same paragraph on many pages without copy-pasting')).toBe(
      '/create/reusable-snippets',
    );
  });

  it('"who changed what" finds the audit log', () => {
    expect(first('see who changed what in the dashboard')).toBe('/dashboard/audit-logs');
  });

  it('"kick off" from a backend finds the trigger endpoint', () => {
    expect(first('kick off a new build from my backend')).toBe('/api/trigger');
  });

  it('a GitLab "we run ourselves" finds the self-hosted page', () => {
    expect(first('connect a GitLab instance we run ourselves')).toBe('/deploy/gitlab-self-hosted');
  });

  it('"the chatbot" or "AI chat" finds the assistant', () => {
    expect(first('the chatbot never shows up in the search bar')).toBe('/assistant/use');
    expect(first('open the AI chat from the search bar')).toBe('/assistant/use');
  });

  it('"phone someone" finds dial-out, not dial-in', () => {
    expect(first('have the bot phone someone with Daily')).toBe('/telephony/dial-out');
  });
});

describe('camelCase identifiers', () => {
  const classes = DocsIndex.build([
    {
      path: 'utilities/llm-switcher.mdx',
      content: page(
        'LLMSwitcher',
        'Create an LLMSwitcher with two services and push a ManuallySwitchServiceFrame.',
      ),
    },
    {
      path: 'learn/llm.mdx',
      content: page('Large language models', 'The LLM service generates replies from the LLM context.'),
    },
    {
      path: 'deploy/oauth.mdx',
      content: page('OAuth setup', 'Configure OAuth for your identity provider.'),
    },
    {
      path: 'deploy/authentication.mdx',
      content: page('Authentication', 'Require readers to authenticate before they read the docs.'),
    },
  ]);

  it('are found by their parts, the way readers write them', () => {
    expect(classes.search('swap the LLM with a switcher', { limit: 3 })[0]?.urlPath).toBe(
      '/utilities/llm-switcher',
    );
  });

  it('are not cut into single letters ("OAuth" is no "auth")', () => {
    expect(identifierPartsText('Use OAuth on iPhone with LLMSwitcher')).toBe('llm switcher');
    expect(classes.search('auth', { limit: 3 }).map((hit) => hit.urlPath)).not.toContain('/deploy/oauth');
  });

  it('keep plural acronyms whole ("URLs" is no "ur ls") and split an acronym before a word', () => {
    expect(identifierPartsText('List the URLs and APIs of an HTTPServer')).toBe('http server');
  });

  it('skip keys and encoded data, however long their runs of capitals', () => {
    // A backtracking pattern would take minutes on these; the scan is linear.
    const key = `a${'B'.repeat(5_000)}!`;
    const blob = `Ab${'Bb'.repeat(5_000)}`;
    expect(identifierPartsText(`${key} ${blob} useTransportState`)).toBe('use transport state');
  });
});

describe('overlong query words', () => {
  it('leaves a word no reader types out of the query, and keeps the rest of the question', () => {
    const pasted = 'a_'.repeat(500_000);
    expect(queryTerms(`${pasted} api key`)).toEqual(['api', 'key']);
    expect(queryTerms('x'.repeat(MAX_QUERY_WORD_LENGTH))).toHaveLength(1);
  });

  it('reads a long run of hyphens or dots in linear time when looking for addresses', () => {
    // Scanning from every position of the run took 20 s for 100 KB of "a-a-a-…".
    for (const run of ['a-'.repeat(50_000), 'a.'.repeat(50_000)]) {
      const started = performance.now();
      const concepts = queryConcepts(`${run}.json api key`);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(concepts.map((concept) => concept.term)).toContain('api');
    }
  });
});

describe('words with more than one meaning', () => {
  const pipeline = DocsIndex.build([
    {
      path: 'learn/pipeline.mdx',
      content: page('Pipeline', 'Frames move through the pipeline from one processor to the next.'),
    },
    {
      path: 'migration/v1.mdx',
      content: page(
        'Migration guide',
        'Migrate your frames and pipeline code: the frames module moved, migration of pipeline tasks.',
      ),
    },
  ]);

  it('"move through" is no migration; "move my docs from" is', () => {
    expect(pipeline.search('how do frames move through the pipeline', { limit: 2 })[0]?.urlPath).toBe(
      '/learn/pipeline',
    );
    expect(pipeline.search('move my pipeline code from the old version', { limit: 2 })[0]?.urlPath).toBe(
      '/migration/v1',
    );
  });
});

describe('language names written with symbols', () => {
  const sdks = DocsIndex.build([
    { path: 'client/cpp.mdx', content: page('C++ SDK', 'Build a client for embedded devices in C++.') },
    {
      path: 'client/js.mdx',
      content: page('JavaScript SDK', 'Build a client for the browser with the SDK.'),
    },
  ]);

  it('"C++" and "C#" keep their letter, which the index holds for them', () => {
    expect(queryTerms('is there a C++ SDK, or one for C#?')).toEqual(['c', 'sdk']);
    expect(queryTerms('a b c')).toEqual([]);
    expect(sdks.search('is there a C++ SDK', { limit: 2 })[0]?.urlPath).toBe('/client/cpp');
  });
});

describe('file names', () => {
  const files = DocsIndex.build([
    {
      path: 'ai/skill-file.mdx',
      content: page(
        'Agents and md files',
        'AI agents read the generated md file of skills. Agents load skills on demand from the md export.',
      ),
    },
    {
      path: 'agent/customize.mdx',
      content: page('Customize the agent', 'Write your conventions in AGENTS.md at the root of the project.'),
    },
  ]);

  it('are searched whole: "AGENTS.md" is not any page about agents and md', () => {
    expect(queryTerms('AGENTS.md')).toEqual(['agents', 'md']);
    expect(files.search('AGENTS.md', { limit: 2 })[0]?.urlPath).toBe('/agent/customize');
    expect(queryConcepts('agents read AGENTS.md, then go').map((concept) => concept.term)).toEqual([
      'agents.md',
      'read',
      'go',
    ]);
  });

  it('are each searched whole when two share a part', () => {
    const concepts = queryConcepts('Edit AGENTS.md and README.md');
    expect(concepts.map((concept) => concept.term)).toEqual(['edit', 'agents.md', 'readme.md']);
    expect(concepts.at(-1)?.alternatives).toEqual(['"readme md"']);
  });
});

describe('indefinite pronouns', () => {
  const tooltips = DocsIndex.build([
    {
      path: 'components/tooltips.mdx',
      content: page('Tooltips', 'Show a definition when the reader hovers over a word.'),
    },
    { path: 'guides/people.mdx', content: page('Invite someone', 'Invite someone to edit something.') },
  ]);

  it('stand for the reader\'s users, whom no page names: "someone" is no word of the question', () => {
    expect(queryTerms('when someone hovers over something')).toEqual(['hovers']);
    const [hit] = tooltips.search('show a definition when someone hovers over a word', { limit: 1 });
    expect(hit?.urlPath).toBe('/components/tooltips');
    expect(hit?.relevance).toBeCloseTo(1);
  });
});
