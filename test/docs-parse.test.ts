import { describe, expect, it } from 'vitest';
import { parsePage } from '../src/docs/parse-page.js';
import { slugify } from '../src/docs/slug.js';
import {
  isDocsPagePath,
  normalizeUrlPath,
  relativeToDocsRoot,
  urlPathFromFile,
} from '../src/docs/url-path.js';

const page = (content: string, path = 'guides/setup.mdx') => parsePage({ path, content });

describe('URL paths', () => {
  it('maps files to the URL paths they are served at', () => {
    expect(urlPathFromFile('guides/setup.mdx')).toBe('/guides/setup');
    expect(urlPathFromFile('index.mdx')).toBe('/');
    expect(urlPathFromFile('guides/index.mdx')).toBe('/guides');
    expect(urlPathFromFile('./api/reference.md')).toBe('/api/reference');
  });

  it('normalises navigation entries and reader paths', () => {
    expect(normalizeUrlPath('guides/setup')).toBe('/guides/setup');
    expect(normalizeUrlPath('https://docs.example.com/guides/setup/?q=1#step-2')).toBe('/guides/setup');
    expect(normalizeUrlPath('/guides/index')).toBe('/guides');
  });

  it('resolves paths against the docs root and tells pages from other files', () => {
    expect(relativeToDocsRoot('docs/guides/a.mdx', 'docs')).toBe('guides/a.mdx');
    expect(relativeToDocsRoot('src/a.mdx', 'docs')).toBeNull();
    expect(relativeToDocsRoot('a.mdx', '.')).toBe('a.mdx');
    expect(isDocsPagePath('guides/a.mdx')).toBe(true);
    expect(isDocsPagePath('snippets/note.mdx')).toBe(false);
    expect(isDocsPagePath('.github/pull_request_template.md')).toBe(false);
    expect(isDocsPagePath('README.md')).toBe(false);
    expect(isDocsPagePath('images/logo.png')).toBe(false);
  });
});

describe('frontmatter', () => {
  it('reads title, description and keywords', () => {
    const parsed = page(
      '---\ntitle: "Setup"\ndescription: Install it\nkeywords: ["install", "cli"]\n---\n\nBody.',
    );
    expect(parsed).toMatchObject({ title: 'Setup', description: 'Install it', keywords: ['install', 'cli'] });
    expect(parsed.urlPath).toBe('/guides/setup');
  });

  it('keeps going on invalid YAML, salvaging a plain title', () => {
    const parsed = page('---\ntitle: Broken page\nkeywords: [unclosed\n---\n\nStill indexed.');
    expect(parsed.title).toBe('Broken page');
    expect(parsed.sections[0]!.body).toBe('Still indexed.');
  });

  it('falls back to the first h1, then to the file name', () => {
    expect(page('# Hello there\n\ntext').title).toBe('Hello there');
    expect(page('text only', 'guides/getting-started.mdx').title).toBe('Getting started');
  });
});

describe('sections', () => {
  it('splits at headings with heading chains and anchors', () => {
    const parsed = page('Intro.\n\n## Install\n\nRun it.\n\n### On macOS\n\nbrew.\n\n## Configure\n\nEdit.');
    expect(parsed.sections.map((section) => [section.anchor, section.headings.join(' > ')])).toEqual([
      ['', ''],
      ['install', 'Install'],
      ['on-macos', 'Install > On macOS'],
      ['configure', 'Configure'],
    ]);
  });

  it('does not split at # lines inside ``` or ~~~ fences, and keeps the code marked', () => {
    const content =
      '## Shell\n\n```bash\n# not a heading\nnpm i\n```\n\n~~~\n## nor this\n~~~\n\n````md\n```\n# nested\n```\n````';
    const parsed = page(content);
    expect(parsed.sections).toHaveLength(1);
    expect(parsed.sections[0]!.body).toContain('```bash\n# not a heading\nnpm i\n```');
    expect(parsed.sections[0]!.body).toContain('~~~\n## nor this\n~~~');
  });

  it('finds headings indented inside components in MDX, not in Markdown', () => {
    expect(page('<Steps>\n  ## Inside\n\n  text\n</Steps>').sections[0]!.heading).toBe('Inside');
    expect(page('text\n\n    # code comment\n', 'a.md').sections).toHaveLength(1);
  });

  it('drops headings with nothing under them but keeps them in the chain', () => {
    const parsed = page('## Parent\n\n### Child\n\nText.');
    expect(parsed.sections).toHaveLength(1);
    expect(parsed.sections[0]!.headings).toEqual(['Parent', 'Child']);
  });

  it('makes each accordion a section under its heading, linked at that heading or its own id', () => {
    const parsed = page(
      [
        '## Troubleshooting',
        '',
        'Common problems.',
        '',
        '<AccordionGroup>',
        '  <Accordion title="Requests from the playground fail">',
        '    Configure CORS on your server.',
        '  </Accordion>',
        '  <Accordion title="Pages are blank" id="blank-pages">',
        '    ```bash',
        '    mint validate',
        '    ```',
        '  </Accordion>',
        '</AccordionGroup>',
        '',
        'Still stuck? Contact support.',
        '',
        '### Logs',
        '',
        '<Expandable title="Fields">Each line is JSON.</Expandable>',
        'Logs rotate daily.',
      ].join('\n'),
    );
    expect(
      parsed.sections.map((section) => [section.anchor, section.level, section.headings.join(' > ')]),
    ).toEqual([
      ['troubleshooting', 2, 'Troubleshooting'],
      ['troubleshooting', 3, 'Troubleshooting > Requests from the playground fail'],
      ['blank-pages', 3, 'Troubleshooting > Pages are blank'],
      ['troubleshooting', 2, 'Troubleshooting'],
      ['logs', 4, 'Troubleshooting > Logs > Fields'],
      ['logs', 3, 'Troubleshooting > Logs'],
    ]);
    const bodies = parsed.sections.map((section) => section.body);
    expect(bodies[1]).toContain('Configure CORS on your server.');
    expect(bodies[2]).toContain('mint validate');
    expect(bodies[3]).toBe('Still stuck? Contact support.');
    expect(bodies[5]).toBe('Logs rotate daily.');
    // Markdown has no components: the same lines stay one section, under its heading.
    const markdown = page('## A\n\n<Accordion title="B">\nText\n</Accordion>\n', 'a.md').sections;
    expect(markdown.map((section) => [section.heading, section.headings])).toEqual([['A', ['A']]]);
    expect(markdown[0]!.body).toContain('Text');
  });

  it('nests accordions in accordions, and takes up the outer one when the inner one closes', () => {
    const parsed = page(
      [
        '## Response',
        '',
        '<Expandable title="properties" id="response-properties">',
        '  Fields of the object.',
        '  <Expandable title="address">',
        '    Street and city.',
        '  </Expandable>',
        '  More fields of the object.',
        '</Expandable>',
        '<Accordion title="Empty" />',
        '<Accordion title="Inline">One line.</Accordion> Then prose.',
        'Closing words.',
        '<Accordion data-id="x" title="a > b">Compared.</Accordion>',
      ].join('\n'),
    );
    expect(parsed.sections.map((section) => [section.anchor, section.headings.join(' > ')])).toEqual([
      ['response-properties', 'Response > properties'],
      ['response', 'Response > properties > address'],
      ['response-properties', 'Response > properties'],
      ['response', 'Response > Empty'],
      ['response', 'Response > Inline'],
      ['response', 'Response'],
      ['response', 'Response > a > b'],
    ]);
    const bodies = parsed.sections.map((section) => section.body);
    expect(bodies[0]).toContain('Fields of the object.');
    expect(bodies[0]).not.toContain('Street');
    expect(bodies[1]).toContain('Street and city.');
    expect(bodies[2]).toBe('More fields of the object.');
    expect(bodies[4]).toContain('One line. Then prose.');
    expect(bodies[5]).toBe('Closing words.');
    expect(bodies[6]).toContain('Compared.');
  });

  it('makes GitHub-style anchors, de-duplicated within a page', () => {
    expect(slugify("What's new in v2.0?")).toBe('whats-new-in-v20');
    expect(slugify('Étape 1: installer')).toBe('étape-1-installer');
    const parsed = page('## Example\n\na\n\n## Example\n\nb\n\n## The `mint dev` [command](/cli)\n\nc');
    expect(parsed.sections.map((section) => section.anchor)).toEqual([
      'example',
      'example-1',
      'the-mint-dev-command',
    ]);
  });
});

describe('MDX noise', () => {
  it('strips import and export blocks, multi-line ones included', () => {
    const content = [
      'import Snippet from "/snippets/a.mdx";',
      '',
      'export const Card = ({ title }) => (',
      '  <div>',
      '',
      '    {title}',
      '  </div>',
      ');',
      '',
      'Real text.',
    ].join('\n');
    expect(page(content).sections[0]!.body).toBe('Real text.');
  });

  it('removes JSX tags but keeps their text and meaningful attributes', () => {
    const content = [
      '<Note>Read this first.</Note>',
      '<Card title="Quickstart" icon="rocket" href="/quickstart">',
      '  Deploy in minutes.',
      '</Card>',
      '<Snippet />',
      '<Accordion',
      '  title="Multi-line tag"',
      '  icon={<svg viewBox="0 0 1 1" />}',
      '>',
      'Hidden body.',
      '</Accordion>',
      '{/* a comment */}<!-- another -->',
    ].join('\n');
    const body = page(content).sections[0]!.body;
    expect(body).toBe('Read this first.\nQuickstart\n\nDeploy in minutes.\n\nMulti-line tag\n\nHidden body.');
    expect(page('<Tab title="npm">Run npm.</Tab>').sections[0]!.body).toBe('npm\nRun npm.');
  });

  it('reduces links and images to their text, keeps inline code verbatim', () => {
    const body = page(
      'See [the guide](/guides/a "Guide") and ![a diagram](/d.png). Use `<Note>` or [`mint dev`](/cli).',
    ).sections[0]!.body;
    expect(body).toBe('See the guide and a diagram. Use `<Note>` or `mint dev`.');
  });

  it('leaves comparison signs and autolinks readable', () => {
    expect(page('if a < b and <https://x.dev>').sections[0]!.body).toBe('if a < b and https://x.dev');
  });
});
