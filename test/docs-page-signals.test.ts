import { describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';

const page = (title: string, body: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${body}\n`;

/** Pages about other things, so that the question's words are as rare as on a real site. */
const others = ['Billing', 'Fonts', 'Changelog', 'Themes', 'Search', 'Support', 'Images', 'Tables'].map(
  (title, position) => ({
    path: `settings/page-${position}.mdx`,
    content: page(
      title,
      `${title} settings live in the settings screen. Choose ${title.toLowerCase()} to change them.`,
    ),
  }),
);

const ranked = (files: { path: string; content: string }[], question: string) =>
  DocsIndex.build([...others, ...files])
    .search(question, { limit: 5 })
    .map((hit) => hit.urlPath);

describe('page-level ranking signals', () => {
  it('ranks the page whose description says the question above one whose text repeats its words', () => {
    const pages = [
      {
        path: 'dashboard/audit-logs.mdx',
        content: page(
          'Audit logs',
          'Export the log to a bucket, or stream it to your security tools.',
          'description: "See who changed what in the dashboard: every change and the member who made it."\n',
        ),
      },
      {
        path: 'deploy/deployments.mdx',
        content: page(
          'Deployments',
          'The dashboard lists deployments. Open a deployment in the dashboard to see the commit it built.',
        ),
      },
    ];
    expect(ranked(pages, 'see who changed what in the dashboard')[0]).toBe('/dashboard/audit-logs');
  });

  it('ranks the page the question names whole above a page whose name holds part of it', () => {
    const pages = [
      {
        path: 'client/react/hooks.mdx',
        content: page('Hooks', 'In React apps, these return the client and the state of its transport.'),
      },
      {
        path: 'client/react/sdk.mdx',
        content: page(
          'React SDK',
          'The React SDK gives React apps hooks and components, which read the client from a provider.',
        ),
      },
      {
        path: 'deploy/git-hooks.mdx',
        content: page('Deploy on push', 'Git hooks run on every push; a hook can deploy the docs.'),
      },
    ];
    expect(ranked(pages, 'React hooks')[0]).toBe('/client/react/hooks');
  });

  it('ranks a page that discusses the question in two sections above one that mentions it once', () => {
    const pages = [
      {
        path: 'guides/structure.mdx',
        content: page(
          'Site structure',
          '## Moved pages\n\nWhen you move a page, redirect its old link to the new path.\n\n' +
            '## Wildcards\n\nA wildcard redirect sends every old link under a path to its new path.',
        ),
      },
      {
        path: 'guides/publishing.mdx',
        content: page(
          'Publishing',
          '## Previews\n\nPreviews build on every push.\n\n' +
            '## When a page moves\n\nWhen a page moves, redirect its old link to the new page.',
        ),
      },
    ];
    expect(ranked(pages, 'redirect an old link to the new page')[0]).toBe('/guides/structure');
  });
});

describe('pages without sections', () => {
  it('finds an API endpoint page that has only frontmatter, and shows its description', () => {
    const hits = DocsIndex.build([
      ...others,
      {
        path: 'api/update/trigger.mdx',
        content: page(
          'Trigger deployment',
          '',
          'openapi: "POST /project/update/{projectId}"\ndescription: "Start a deployment of your site from a script."\n',
        ),
      },
    ]).search('trigger a deployment from a script');
    expect(hits[0]?.urlPath).toBe('/api/update/trigger');
    expect(hits[0]?.body).toBe('Start a deployment of your site from a script.');
  });
});
