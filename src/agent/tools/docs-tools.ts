import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { DocsSearch } from './docs-search.js';
import type { DocsWorkspace } from './docs-workspace.js';

/**
 * The model's tools over one job's docs: list, read and search; write, edit, delete and
 * move. Paths are relative to the docs folder. Every tool answers in text; a refused or failed
 * call answers `Error: ...` instead of throwing, so the model reads why and can try again.
 */
export function createDocsTools(workspace: DocsWorkspace, search: DocsSearch): ToolSet {
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
