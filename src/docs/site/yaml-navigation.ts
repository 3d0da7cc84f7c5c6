import { Document, isMap, isScalar, isSeq, parseDocument, type Pair, type YAMLSeq } from 'yaml';
import {
  listedByGenerated,
  navigationPages,
  type NavigationEdit,
  type NavigationEditResult,
  type NavigationItem,
  type NavigationRead,
  type PageKeyOf,
} from './navigation-tree.js';

/**
 * MkDocs' `nav:` in `mkdocs.yml`, read and edited through the `yaml` document API. An edit rewrites
 * the text of the `nav:` value only and splices it back, so the rest of the file (comments, Python
 * tags such as `!!python/name:`, `!ENV`) stays byte for byte as it was; comments inside the `nav:`
 * list stay with their entries.
 *
 * Entries: `- index.md` (a page, titled by the page), `- Label: guide/setup.md` (a page with its
 * label), `- Label: [ ... ]` (a section), `- Label: https://…` (a link). With no `nav:` at all MkDocs
 * lists every page by itself, which reads as one generated entry for the whole site.
 */

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The `mkdocs.yml` text parsed; `{ error }` when it is not valid YAML. */
function parse(text: string): { document: Document.Parsed } | { error: string } {
  const document = parseDocument(text, { uniqueKeys: false });
  const error = document.errors[0];
  return error === undefined
    ? { document }
    : { error: `it is not valid YAML (${error.message.split('\n')[0]})` };
}

function navPair(document: Document.Parsed): Pair | undefined {
  if (!isMap(document.contents)) return undefined;
  return document.contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'nav');
}

/** Reads `nav:`; absent, the whole site is one generated entry (MkDocs lists every page itself). */
export function readYamlNavigation(text: string): NavigationRead | { error: string } {
  const parsed = parse(text);
  if ('error' in parsed) return parsed;
  const pair = navPair(parsed.document);
  if (pair === undefined) return { items: [{ kind: 'generated', folder: '' }], computed: [] };
  if (!isSeq(pair.value)) return { items: [], computed: ['`nav:` is not a list'] };
  return { items: readList(pair.value), computed: [] };
}

function readList(list: YAMLSeq): NavigationItem[] {
  return list.items.flatMap((node): NavigationItem[] => {
    if (isScalar(node) && typeof node.value === 'string') return [entry(undefined, node.value)];
    if (!isMap(node) || node.items.length !== 1) return [];
    const { key, value } = node.items[0]!;
    const label = isScalar(key) ? String(key.value) : '';
    if (isSeq(value)) return [{ kind: 'group', label, items: readList(value) }];
    if (isScalar(value) && typeof value.value === 'string') return [entry(label, value.value)];
    return [];
  });
}

function entry(label: string | undefined, target: string): NavigationItem {
  const base = label === undefined ? {} : { label };
  return EXTERNAL.test(target)
    ? { kind: 'link', href: target, ...base }
    : { kind: 'page', ref: target, ...base };
}

/** Applies one edit to `nav:`; the rest of the file is untouched. */
export function editYamlNavigation(text: string, edit: NavigationEdit, key: PageKeyOf): NavigationEditResult {
  const unchanged = (note?: string): NavigationEditResult => ({
    text,
    changed: false,
    ...(note ? { note } : {}),
  });
  const parsed = parse(text);
  if ('error' in parsed) return unchanged(`I left \`mkdocs.yml\` alone: ${parsed.error}.`);
  const pair = navPair(parsed.document);
  if (pair === undefined) {
    return edit.op === 'add'
      ? unchanged('MkDocs lists it by itself: `mkdocs.yml` has no `nav:`.')
      : unchanged();
  }
  const list = pair.value;
  if (!isSeq(list)) return unchanged('`nav:` in `mkdocs.yml` is not a list, so I did not edit it.');
  const document = parsed.document;
  let changed: boolean;
  if (edit.op === 'add') {
    const items = readList(list);
    const wanted = key(edit.ref);
    if (navigationPages(items).some((page) => key(page.ref) === wanted))
      return unchanged('`nav:` lists it already.');
    if (listedByGenerated(items, wanted)) return unchanged();
    const target = placement(list, edit, key);
    target.list.items.splice(target.index, 0, document.createNode({ [edit.label]: edit.ref }));
    changed = true;
  } else if (edit.op === 'remove') {
    changed = removeFrom(list, key(edit.ref), key);
  } else {
    changed = renameIn(list, key(edit.from), edit.to, key);
  }
  if (!changed) return unchanged();
  return { text: spliceValue(text, list), changed: true };
}

interface Slot {
  list: YAMLSeq;
  index: number;
}

/** The named section, else right after `after`, else after the most siblings of its folder, else the end. */
function placement(root: YAMLSeq, edit: Extract<NavigationEdit, { op: 'add' }>, key: PageKeyOf): Slot {
  const lists = allLists(root);
  if (edit.group !== undefined) {
    const wanted = edit.group.trim().toLowerCase();
    const section = lists.find((entry) => entry.label?.toLowerCase() === wanted);
    if (section) return { list: section.list, index: section.list.items.length };
  }
  if (edit.after !== undefined) {
    const after = key(edit.after);
    for (const { list } of lists) {
      const index = list.items.findIndex((node) => pageRef(node, key) === after);
      if (index !== -1) return { list, index: index + 1 };
    }
  }
  const folder = folderOf(key(edit.ref));
  let best: Slot | undefined;
  let bestCount = 0;
  for (const { list } of lists) {
    const siblings = list.items
      .map((node, index) => ({ ref: pageRef(node, key), index }))
      .filter((item) => item.ref !== undefined && folderOf(item.ref) === folder);
    if (siblings.length > bestCount) {
      bestCount = siblings.length;
      best = { list, index: siblings.at(-1)!.index + 1 };
    }
  }
  return best ?? { list: root, index: root.items.length };
}

function allLists(root: YAMLSeq, label?: string): { list: YAMLSeq; label?: string }[] {
  const lists: { list: YAMLSeq; label?: string }[] = [
    label === undefined ? { list: root } : { list: root, label },
  ];
  for (const node of root.items) {
    if (!isMap(node) || node.items.length !== 1) continue;
    const { key, value } = node.items[0]!;
    if (isSeq(value)) lists.push(...allLists(value, isScalar(key) ? String(key.value) : ''));
  }
  return lists;
}

/** The page key of a page entry, undefined for sections and links. */
function pageRef(node: unknown, key: PageKeyOf): string | undefined {
  if (isScalar(node) && typeof node.value === 'string')
    return EXTERNAL.test(node.value) ? undefined : key(node.value);
  if (!isMap(node) || node.items.length !== 1) return undefined;
  const value = node.items[0]!.value;
  if (isScalar(value) && typeof value.value === 'string' && !EXTERNAL.test(value.value))
    return key(value.value);
  return undefined;
}

function folderOf(pageKey: string): string {
  const slash = pageKey.lastIndexOf('/');
  return slash === -1 ? '' : pageKey.slice(0, slash);
}

/** Removes the page's entries, and the sections the removal emptied. */
function removeFrom(list: YAMLSeq, wanted: string, key: PageKeyOf): boolean {
  let changed = false;
  for (let index = list.items.length - 1; index >= 0; index--) {
    const node = list.items[index];
    if (pageRef(node, key) === wanted) {
      list.items.splice(index, 1);
      changed = true;
      continue;
    }
    const section = isMap(node) && node.items.length === 1 ? node.items[0]!.value : undefined;
    if (isSeq(section) && removeFrom(section, wanted, key)) {
      changed = true;
      if (section.items.length === 0) list.items.splice(index, 1);
    }
  }
  return changed;
}

/** Points every entry of the page at `to`, keeping its label and place. */
function renameIn(list: YAMLSeq, from: string, to: string, key: PageKeyOf): boolean {
  let changed = false;
  for (const node of list.items) {
    if (isScalar(node) && typeof node.value === 'string' && pageRef(node, key) === from) {
      node.value = to;
      changed = true;
    } else if (isMap(node) && node.items.length === 1) {
      const pair = node.items[0]!;
      if (isSeq(pair.value)) changed = renameIn(pair.value, from, to, key) || changed;
      else if (pageRef(node, key) === from && isScalar(pair.value)) {
        pair.value.value = to;
        changed = true;
      }
    }
  }
  return changed;
}

/** The file with the `nav:` list's text replaced by its new form, indented as the file indents it. */
function spliceValue(text: string, list: YAMLSeq): string {
  const [start, end] = list.range!;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const indent = text.slice(lineStart, start);
  const copy = new Document(list);
  const body = copy
    .toString({ lineWidth: 0 })
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
  const trailing = /\s*$/.exec(text.slice(start, end))![0];
  return text.slice(0, lineStart) + body + (trailing === '' ? '\n' : trailing) + text.slice(end);
}
