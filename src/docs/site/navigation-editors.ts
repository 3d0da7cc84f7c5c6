import { posix } from 'node:path';
import { listNavigationPages } from '../navigation.js';
import type { DocsFramework } from './frameworks.js';
import { editJsNavigation, readJsNavigation } from './js-navigation.js';
import { editJsonNavigation } from './json-navigation.js';
import type {
  NavigationEdit,
  NavigationEditResult,
  NavigationItem,
  NavigationRead,
  PageKeyOf,
} from './navigation-tree.js';
import { editYamlNavigation, readYamlNavigation } from './yaml-navigation.js';

/**
 * One reader and one editor of navigation per framework, chosen by the framework and never by the
 * file's name, so a new framework is one more case here.
 */
export function readNavigationText(
  framework: DocsFramework,
  file: string,
  text: string,
  mintlify?: { config: unknown; resolved: unknown },
): NavigationRead | { error: string } {
  switch (framework) {
    case 'docusaurus':
    case 'vitepress':
    case 'starlight':
      return readJsNavigation(text, posix.basename(file), framework);
    case 'mkdocs':
      return readYamlNavigation(text);
    case 'mintlify': {
      const navigation = (mintlify?.config as { navigation?: unknown } | null)?.navigation;
      const included = JSON.stringify(navigation ?? null).includes('"$ref"');
      return {
        items: mintlifyItems(mintlify?.resolved),
        computed: included ? ['parts of it live in files included with `$ref`'] : [],
      };
    }
    case 'markdown':
      return { items: [{ kind: 'generated', folder: '' }], computed: [] };
  }
}

export function editNavigationText(
  framework: DocsFramework,
  file: string,
  text: string,
  edit: NavigationEdit,
  key: PageKeyOf,
): NavigationEditResult {
  switch (framework) {
    case 'docusaurus':
    case 'vitepress':
    case 'starlight':
      return editJsNavigation(text, posix.basename(file), framework, edit, key);
    case 'mkdocs':
      return editYamlNavigation(text, edit, key);
    case 'mintlify':
      return editJsonNavigation(text, posix.basename(file), edit);
    case 'markdown':
      return { text, changed: false };
  }
}

/** Mintlify's navigation as items: each page under the chain of groups docs.json puts it in. */
function mintlifyItems(resolved: unknown): NavigationItem[] {
  const root: NavigationItem[] = [];
  for (const entry of listNavigationPages(resolved)) {
    let list = root;
    for (const label of entry.groups) {
      const last = list.at(-1);
      if (last?.kind === 'group' && last.label === label) list = last.items;
      else {
        const group: NavigationItem = { kind: 'group', label, items: [] };
        list.push(group);
        list = group.items;
      }
    }
    list.push({ kind: 'page', ref: entry.page });
  }
  return root;
}
