import { posix } from 'node:path';
import { openDocsSite, type DocsSiteFiles } from '../../docs/index.js';
import { editNavigationText } from '../../docs/site/navigation-editors.js';
import type { NavigationEdit, NavigationItem } from '../../docs/site/navigation-tree.js';
import type { Overlay } from '../../forge/overlay.js';
import type { PathGuard } from './path-guard.js';
import { ToolRefusal } from './tool-refusal.js';

/** What the model asks of the navigation: pages are paths relative to the docs folder. */
export type NavigationRequest =
  | { op: 'add'; page: string; label?: string; group?: string; after?: string }
  | { op: 'remove'; page: string }
  | { op: 'rename'; page: string; to: string };

/**
 * The site's navigation as the model's tools see it, whatever framework holds it: read as groups
 * and page files, and edited by page file through the framework's own editor, so a model never
 * rewrites `sidebars.js`, `mkdocs.yml` or a VitePress config by hand (and never touches the rest
 * of them). The navigation file may sit outside the docs folder (Docusaurus `sidebars.js`, MkDocs
 * `mkdocs.yml`): the write policy allows that one file.
 */
export class SiteNavigationTool {
  /**
   * Edits one after another: a model may call the tool several times in one step, and the SDK runs
   * those calls at once; each edit reads the file the previous one wrote.
   */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly files: Overlay,
    private readonly guard: PathGuard,
    /** One line per change made, for the reply. */
    private readonly log: string[],
  ) {}

  private site(): Promise<DocsSiteFiles> {
    return openDocsSite(this.files, this.guard.root);
  }

  /** The navigation as indented text: groups and the page files they list. */
  async read(): Promise<string> {
    const site = await this.site();
    const navigation = site.siteNavigation;
    const { framework } = site.layout;
    if (navigation.file === undefined) {
      return `This ${framework} site has no navigation file: the framework lists every page by itself.`;
    }
    if (navigation.error !== undefined) return `${navigation.file} cannot be read: ${navigation.error}.`;
    const fileOf = new Map(navigation.entries.map((entry) => [entry.ref, entry.file]));
    const lines = describe(navigation.items, (ref) => fileOf.get(ref) ?? `${ref} (no such page)`, '');
    const computed =
      navigation.computed.length > 0
        ? `\nComputed by code, not editable: ${navigation.computed.join('; ')}.`
        : '';
    return `The navigation of this ${framework} site, in ${navigation.file}:\n${lines.join('\n')}${computed}`;
  }

  /** Applies one change by page file, after the ones asked before it; answers what happened. */
  edit(request: NavigationRequest): Promise<string> {
    const next = this.queue.then(() => this.applyEdit(request));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async applyEdit(request: NavigationRequest): Promise<string> {
    const site = await this.site();
    const file = site.siteNavigation.file;
    if (file === undefined) return 'Nothing to edit: the framework lists every page by itself.';
    const refOf = (page: string) => site.refOf(this.pageFile(site, page));
    let edit: NavigationEdit;
    if (request.op === 'add') {
      edit = {
        op: 'add',
        ref: refOf(request.page),
        label: request.label ?? titleOf(request.page),
        ...(request.group === undefined ? {} : { group: request.group }),
        ...(request.after === undefined ? {} : { after: refOf(request.after) }),
      };
    } else if (request.op === 'remove') {
      edit = { op: 'remove', ref: refOf(request.page) };
    } else {
      edit = { op: 'rename', from: refOf(request.page), to: refOf(request.to) };
    }
    const text = await this.files.read(file);
    const result = editNavigationText(site.layout.framework, file, text, edit, site.keyOfRef);
    if (!result.changed) return `Unchanged: ${result.note ?? 'the navigation has no such entry'}`;
    this.files.write(file, result.text);
    const line = `${request.op === 'add' ? 'listed' : request.op === 'remove' ? 'unlisted' : 'renamed'} ${request.page} in ${posix.basename(file)}`;
    this.log.push(line);
    return `Done: ${line}.`;
  }

  /** A page path the model gave, relative to the pages folder, checked like every path it gives. */
  private pageFile(site: DocsSiteFiles, page: string): string {
    this.guard.resolve(page);
    const file = page.replace(/^\/+/, '');
    if (!/\.(mdx?|markdown|mdoc)$/i.test(file)) {
      throw new ToolRefusal(
        `${page} is not a page file: give its path with its extension (guides/setup${site.layout.pageExtension})`,
      );
    }
    return file;
  }
}

function describe(
  items: readonly NavigationItem[],
  fileOf: (ref: string) => string,
  indent: string,
): string[] {
  return items.flatMap((item) => {
    if (item.kind === 'page') return [`${indent}- ${fileOf(item.ref)}`];
    if (item.kind === 'link') return [`${indent}- ${item.label ?? item.href} → ${item.href}`];
    if (item.kind === 'generated')
      return [`${indent}- (every page under ${item.folder || 'the docs folder'}, listed by the framework)`];
    const own = item.ref === undefined ? '' : ` (its page: ${fileOf(item.ref)})`;
    return [`${indent}- group "${item.label}"${own}`, ...describe(item.items, fileOf, `${indent}  `)];
  });
}

function titleOf(page: string): string {
  const name = posix
    .basename(page)
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}
