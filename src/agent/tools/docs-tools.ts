import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { DocsSearch } from './docs-search.js';
import type { DocsWorkspace } from './docs-workspace.js';
import type { SiteNavigationTool } from './site-navigation.js';

/**
 * The model's tools over one job's docs: list, read and search; write, edit, delete and
 * move. Paths are relative to the docs folder. Every tool answers in text; a refused or failed
 * call answers `Error: ...` instead of throwing, so the model reads why and can try again.
 */
export function createDocsTools(
  workspace: DocsWorkspace,
  search: DocsSearch,
  navigation: SiteNavigationTool,
): ToolSet {
  return {
    list_files: tool({
      description:
        'List the files of the docs folder, optionally filtered by a glob (`**/*.mdx`, `guides/*`, `{a,b}.md`). A pattern without "/" also matches file names in any folder.',
      inputSchema: z.object({ pattern: z.string().optional().describe('glob; default: every file') }),
      execute: ({ pattern }) => answer(() => workspace.list(pattern)),
    }),
    read_file: tool({
      description:
        'Read a text file, or a range of its lines (1-based, inclusive). Long files come 400 lines at a time.',
      inputSchema: z.object({
        path: z.string().describe('path relative to the docs folder'),
        startLine: z.number().int().min(1).optional(),
        endLine: z.number().int().min(1).optional(),
      }),
      execute: ({ path, startLine, endLine }) => answer(() => workspace.read(path, startLine, endLine)),
    }),
    search_docs: tool({
      description:
        'Full-text search over the docs pages (as they were when the run first searched). Returns files, headings and snippets.',
      inputSchema: z.object({ query: z.string().min(1).describe('words to look for') }),
      execute: ({ query }) => answer(() => search.search(query)),
    }),
    write_file: tool({
      description:
        'Create a file, or replace its whole content. Prefer edit_file for changes to existing files.',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: ({ path, content }) => answer(() => workspace.write(path, content)),
    }),
    edit_file: tool({
      description:
        'Replace one exact piece of text in a file. oldText must occur exactly once (copy it from read_file, whitespace included); otherwise the edit is refused and nothing changes.',
      inputSchema: z.object({ path: z.string(), oldText: z.string(), newText: z.string() }),
      execute: ({ path, oldText, newText }) => answer(() => workspace.edit(path, oldText, newText)),
    }),
    delete_file: tool({
      description: 'Delete a file. Remove the links and navigation entries that point to it too.',
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => answer(() => workspace.delete(path)),
    }),
    move_file: tool({
      description: 'Move or rename a file. Update the links and navigation entries that point to it too.',
      inputSchema: z.object({ from: z.string(), to: z.string() }),
      execute: ({ from, to }) => answer(() => workspace.move(from, to)),
    }),
    read_navigation: tool({
      description:
        "Show the site's navigation (sidebar): its groups and the page files they list, and which file holds it.",
      inputSchema: z.object({}),
      execute: () => answer(() => navigation.read()),
    }),
    edit_navigation: tool({
      description:
        'Add a page to the navigation, remove one, or point an entry at a moved page. Use this instead of editing the navigation file (sidebars.js, mkdocs.yml, a VitePress or Astro config, docs.json) by hand.',
      inputSchema: z.object({
        op: z.enum(['add', 'remove', 'rename']),
        page: z.string().describe('the page file, relative to the docs folder (guides/setup.md)'),
        to: z.string().optional().describe('for rename: the page file it moved to'),
        group: z.string().optional().describe('for add: the group to list it in, by its label'),
        after: z.string().optional().describe('for add: the page file to list it after'),
        label: z.string().optional().describe('for add: the label to show (default: from the file name)'),
      }),
      execute: (request) =>
        answer(() => {
          if (request.op === 'rename') {
            if (request.to === undefined) return 'Error: rename needs `to`, the page file it moved to.';
            return navigation.edit({ op: 'rename', page: request.page, to: request.to });
          }
          if (request.op === 'remove') return navigation.edit({ op: 'remove', page: request.page });
          return navigation.edit({
            op: 'add',
            page: request.page,
            ...(request.label === undefined ? {} : { label: request.label }),
            ...(request.group === undefined ? {} : { group: request.group }),
            ...(request.after === undefined ? {} : { after: request.after }),
          });
        }),
    }),
  };
}

/** Runs a tool body; any failure becomes the text the model reads (the run goes on). */
async function answer(body: () => string | Promise<string>): Promise<string> {
  try {
    return await body();
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
