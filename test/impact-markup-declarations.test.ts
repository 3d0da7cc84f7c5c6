/**
 * What in a diff names something a page documents: not an asset (an SVG is text, but no code), not
 * the text or the markup of a page of the project's website, and a field whose type changed is a
 * change of it on a page that quotes its old declaration.
 */
import { describe, expect, it } from 'vitest';
import { analyzeImpact, changesCode, describeEvidence, parseUnifiedDiff } from '../src/impact/index.js';
import { diffNames } from '../src/impact/diff-names.js';
import { fileRole } from '../src/impact/file-roles.js';
import { hunkSpans } from '../src/impact/markup-spans.js';
import { filePatch } from './helpers/file-patch.js';

const affected = (result: ReturnType<typeof analyzeImpact>) =>
  result.pages.filter((page) => page.affected).map((page) => page.path);

/** Names of the code files of a diff, as the analysis reads them. */
function namesOf(diff: string): string[] {
  const files = parseUnifiedDiff(diff).files.filter((file) => fileRole(file) === 'code');
  return diffNames(files).map((name) => name.name);
}

/** Pages that use the words a marketing page's text is made of, as docs do. */
const pages = [
  {
    path: 'concepts/islands.md',
    text: [
      '# Islands',
      '',
      'Since Fresh 2, islands hydrate on their own. The `min` option was removed; use `minHydration`.',
      'Every island is rendered on the server first, and its props are serialized.',
      '',
    ].join('\n'),
  },
  {
    path: 'getting-started.md',
    text: '# Getting started\n\nNo config files, no build step: run `deno run -Ar jsr:@fresh/init`.\n',
  },
  {
    path: 'concepts/static-files.md',
    text: '# Static files\n\nThe `logo.svg` in `static/` is served with a `viewBox` kept as it is.\n',
  },
];

describe('assets are not code', () => {
  it('gives images, icons, fonts, media and animations the asset role, so an SVG-only diff changes no code', () => {
    const svg = filePatch('www/static/logo.svg', [
      ' <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">',
      '-  <path d="M12 2L2 7l10 5 10-5-10-5z" stroke-width="1.5" />',
      '+  <path d="M12 2L2 7l10 5 10-5-10-5z" stroke-width="2" />',
      ' </svg>',
    ]);
    const parsed = parseUnifiedDiff(svg);
    expect(fileRole(parsed.files[0]!)).toBe('asset');
    expect(changesCode(parsed)).toBe(false);
    expect(analyzeImpact({ diff: svg, pages }).pages).toEqual([]);
    for (const path of [
      'a/icon.ico',
      'a/font.woff2',
      'a/intro.mp4',
      'a/hero.lottie',
      'site.webmanifest',
      'a/b.avif',
    ])
      expect(fileRole({ newPath: path, status: 'modified', binary: false, hunks: [] }), path).toBe('asset');
    expect(fileRole({ newPath: 'src/icons.tsx', status: 'modified', binary: false, hunks: [] })).toBe('code');
  });
});

describe('the text and markup of a JSX page are not names', () => {
  const landing = filePatch('www/components/homepage/Hero.tsx', [
    ' export function Hero() {',
    '   return (',
    '     <div class="md:grid grid-cols-5 gap-8 items-center w-full max-w-screen-xl">',
    '       <div class="flex-1 text-center md:text-left md:col-span-3 pb-8">',
    '+        <p class="italic text-gray-500 text-lg mb-4">Introducing Fresh:</p>',
    '         <h2 class="text-[calc(1rem+4vw)] leading-tight sm:text-5xl font-extrabold">',
    '-          The simple, approachable, productive web framework',
    '+          The framework so simple, you already know it.',
    '         </h2>',
    '-        <p>Since removed min changed, it is rendered on the server.</p>',
    '+        <p class="mt-6 text-lg">',
    '+          No config files, no build step. Don\'t wait: islands hydrate{" "}',
    '+          <a href="/docs/concepts/islands" class="underline">on their own</a>.',
    '+        </p>',
    '         <div class="mt-12 flex flex-wrap justify-center gap-4">',
    '           <FancyLink href="/docs/getting-started">Get started</FancyLink>',
    '-          <CopyArea code={`deno run -A -r https://fresh.deno.dev`} />',
    '+          <CopyArea code={`deno run -Ar jsr:@fresh/init`} />',
    '         </div>',
    '       </div>',
    '-      <div class="md:col-span-2 flex justify-center items-end">',
    '+      <div class={`md:col-span-2 flex justify-center ${tall ? "pb-32" : "pb-8"}`}>',
    '         <LemonTop />',
    '       </div>',
    '     </div>',
    '   );',
    ' }',
  ]);

  it('yields no names from the text, the tags or the class lists, and lists no page', () => {
    const names = namesOf(landing);
    for (const word of [
      'Since',
      'removed',
      'min',
      'changed',
      'rendered',
      'server',
      'framework',
      'simple',
      'wait',
    ])
      expect(names, word).not.toContain(word);
    expect(names.filter((name) => /^-|:|^(?:class|href|div|p|h2|a)$/.test(name))).toEqual([]);
    // Code around the markup still counts (a component the page uses); a computed class list is styling.
    expect(names).toContain('CopyArea');
    expect(names).not.toContain('tall');
    const result = analyzeImpact({ diff: landing, pages });
    expect(affected(result)).toEqual([]);
    for (const page of result.pages)
      for (const item of page.evidence)
        if (item.kind === 'name') expect(['Since', 'removed', 'min', 'changed']).not.toContain(item.name);
  });

  it('still reads option keys from strings and names from code in the same file', () => {
    const diff = filePatch('www/routes/index.tsx', [
      ' export const config = {',
      "-  'minHydration': 2,",
      "+  'maxHydration': 2,",
      ' };',
      ' export default function Page() {',
      '-  return <p>Since removed</p>;',
      '+  return <p>Since renamed</p>;',
      ' }',
    ]);
    const names = namesOf(diff);
    expect(names).toEqual(expect.arrayContaining(['minHydration', 'maxHydration']));
    expect(names).not.toContain('Since');
    expect(names).not.toContain('removed');
  });

  it('reads the template of a Vue, Svelte or HTML file as text, its script as code, block comments as comments', () => {
    const vue = filePatch('src/components/Badge.vue', [
      ' <script setup lang="ts">',
      '-defineProps<{ type?: "info" | "tip" }>()',
      '+defineProps<{ type?: "info" | "tip" | "danger"; badgeText?: string }>()',
      ' </script>',
      ' ',
      ' <template>',
      '-  <span class="VPBadge" :class="type">Since removed</span>',
      '+  <span class="VPBadge" :class="type">{{ badgeText }} min changed</span>',
      ' </template>',
    ]);
    const names = namesOf(vue);
    expect(names).toEqual(expect.arrayContaining(['badgeText', 'danger']));
    for (const word of ['Since', 'removed', 'min', 'changed', 'VPBadge', 'span'])
      expect(names, word).not.toContain(word);

    const template = filePatch('src/components/Card.svelte', [
      '     <p>{title}</p>',
      '   </div>',
      '-  <span class="note">Since removed</span>',
      '+  <span class="note">Since renamed, see {maxHydration}</span>',
      ' </section>',
    ]);
    expect(namesOf(template)).toEqual(['maxHydration']);

    const comment = filePatch('src/server.ts', [
      ' /*',
      '-  Since removed the min option changed its default.',
      '+  Since renamed the min option, see maxHydration.',
      ' */',
      ' export function serve() {}',
    ]);
    expect(namesOf(comment)).toEqual(['maxHydration']);
  });

  it('does not read a regular expression or a string as the opening of a comment or a tag', () => {
    const diff = filePatch('src/paths.ts', [
      "-  const root = dir.replace(/\\/*$/, '/');",
      "+  const root = dir.replace(/\\/+$/, '/');",
      '   const ok = count < limit && limit > 0;',
      '-  return normalize(root, stripTrailing);',
      '+  return normalize(root, keepTrailing);',
    ]);
    const parsed = parseUnifiedDiff(diff);
    expect([...hunkSpans('src/paths.ts', parsed.files[0]!.hunks[0]!).values()]).toEqual([]);
    expect(namesOf(diff)).toEqual(expect.arrayContaining(['stripTrailing', 'keepTrailing']));
  });
});

describe('a changed declaration of a documented field', () => {
  const optionsDiff = filePatch('packages/fresh/src/dev/builder.ts', [
    ' export interface BuildOptions {',
    '   /** The root directory of the project. */',
    '   root?: string;',
    '   /** Where to write generated files. */',
    '   outDir?: string;',
    '   /** Path to the static file directory. */',
    '-  staticDir?: string;',
    '+  staticDir?: string | string[];',
    '   /** Path to the islands directory. */',
    '   islandDir?: string;',
    ' }',
  ]);
  const docs = [
    {
      path: 'advanced/builder.md',
      text: [
        '# Builder',
        '',
        '```ts dev.ts',
        'const builder = new Builder({',
        '  // The root directory of the project. (Default: `Deno.cwd()`)',
        '  root?: string;',
        '  // Path to static file directory. (Default: `<root>/static/`)',
        '  staticDir?: string;',
        '  // Path to island directory. (Default: `<root>/islands`)',
        '  islandDir?: string;',
        '})',
        '```',
        '',
      ].join('\n'),
    },
    {
      path: 'concepts/static-files.md',
      text: '# Static files\n\nFiles in `static/` are served; set `staticDir` to serve another folder.\n',
    },
    {
      path: 'advanced/vite.md',
      text: '# Vite\n\n```ts\nfresh({\n  staticDir?: string | string[];\n})\n```\n',
    },
  ];

  it('lists the page that quotes the old declaration, with both declarations as evidence', () => {
    const result = analyzeImpact({ diff: optionsDiff, pages: docs });
    expect(affected(result)).toEqual(['advanced/builder.md']);
    const item = result.pages[0]!.evidence.find((evidence) => evidence.kind === 'name');
    expect(item).toMatchObject({
      kind: 'name',
      name: 'staticDir',
      change: 'type-changed',
      oldValue: 'staticDir?: string;',
      newValue: 'staticDir?: string | string[];',
      diffLine: { file: 'packages/fresh/src/dev/builder.ts', line: 16, text: 'staticDir?: string;' },
      pageLine: { line: 8, text: 'staticDir?: string;' },
    });
    expect(describeEvidence(item!)).toBe(
      'staticDir declared staticDir?: string; -> staticDir?: string | string[]; (packages/fresh/src/dev/builder.ts:16); page line 8: staticDir?: string;',
    );
    // A page that only names the field, or already shows the new type, hears of a change in its area.
    for (const path of ['concepts/static-files.md', 'advanced/vite.md']) {
      const names = result.pages
        .find((page) => page.path === path)
        ?.evidence.filter((e) => e.kind === 'name');
      expect(
        names?.map((e) => (e.kind === 'name' ? e.change : '')),
        path,
      ).toEqual(['changed']);
    }
  });

  it('reads a changed signature, without `export function` on the page, and a Python def', () => {
    const ts = filePatch('src/render.ts', [
      '-export function renderPage(page: Page, options?: RenderOptions): string {',
      '+export function renderPage(page: Page, options?: RenderOptions): Promise<string> {',
      '   return render(page, options);',
    ]);
    const page = {
      path: 'api.md',
      text: '# API\n\n```ts\nrenderPage(page: Page, options?: RenderOptions): string\n```\n\nRenders a page.\n',
    };
    expect(affected(analyzeImpact({ diff: ts, pages: [page] }))).toEqual(['api.md']);
    const python = filePatch('acme/client.py', [
      '-def open_session(url, timeout=30):',
      '+def open_session(url, timeout=30, retries=0):',
      '     return Session(url, timeout)',
    ]);
    const reference = {
      path: 'reference.md',
      text: '# Reference\n\n## `def open_session(url, timeout=30)`\n',
    };
    expect(affected(analyzeImpact({ diff: python, pages: [reference] }))).toEqual(['reference.md']);
  });

  it('keeps a changed use of the field, or a changed value, as area evidence', () => {
    const usage = filePatch('packages/fresh/src/dev/builder.ts', [
      '-    const staticDir = parseDirPath(options?.staticDir ?? "static", root);',
      '+    const staticDirs = [options?.staticDir ?? "static"].flat().map((dir) => parseDirPath(dir, root));',
    ]);
    const result = analyzeImpact({ diff: usage, pages: docs });
    const changes = result.pages.flatMap((page) =>
      page.evidence.flatMap((item) =>
        item.kind === 'name' && item.name === 'staticDir' ? [item.change] : [],
      ),
    );
    expect(changes).not.toContain('type-changed');
    const assignment = filePatch('src/config.ts', [
      '-  const staticDir = resolve(root, "static");',
      '+  const staticDir = resolve(root, "public");',
    ]);
    const quoted = { path: 'config.md', text: '```ts\nconst staticDir = resolve(root, "static");\n```\n' };
    const items = analyzeImpact({ diff: assignment, pages: [quoted] }).pages.flatMap((page) => page.evidence);
    expect(items.map((item) => (item.kind === 'name' ? item.change : item.kind))).not.toContain(
      'type-changed',
    );
  });
});
