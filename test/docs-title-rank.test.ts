import { describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Pages about other things, so that the question's words are rare as they are on a real site. */
const others = [
  'Billing',
  'Team members',
  'Custom fonts',
  'Analytics',
  'Changelog',
  'Themes',
  'Search',
  'Support',
  'Images',
  'Tables',
].map((title, position) => ({
  path: `settings/page-${position}.mdx`,
  content: page(
    title,
    `${title} settings live in the dashboard. Open the dashboard and choose ${title.toLowerCase()} to change them.`,
  ),
}));

/**
 * Readers name what a page is about; a page about a neighbouring subject repeats more of the
 * reader's words in its text (a reference mentions its subject in every sentence).
 */
const index = DocsIndex.build([
  ...others,
  {
    path: 'learn/idle-timeout.mdx',
    content: page(
      'Idle timeout',
      'A pipeline with no activity for a while ends itself. Set the number of seconds to wait.',
    ),
  },
  {
    path: 'reference/frame-observer.mdx',
    content: page(
      'Frame observer',
      'The observer watches the pipeline for idle periods. Each pipeline frame passes the observer, and the ' +
        'observer logs pipeline activity. Attach the observer when the pipeline starts; the pipeline reports ' +
        'activity to the observer until the pipeline ends.',
    ),
  },
]);

describe('ranking by what a page is about', () => {
  it('puts the page whose title names the question above one whose text repeats its words', () => {
    const hits = index.search('end the pipeline after a period of idle time');
    expect(hits.map((hit) => hit.urlPath).slice(0, 2)).toEqual([
      '/learn/idle-timeout',
      '/reference/frame-observer',
    ]);
  });
});
