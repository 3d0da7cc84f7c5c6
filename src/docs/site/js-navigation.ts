/**
 * The navigation of docs sites whose sidebar lives in a JavaScript or TypeScript config file:
 * Docusaurus `sidebars.js|ts`, VitePress `.vitepress/config.*` (`themeConfig.sidebar`) and
 * Starlight `astro.config.*` (the `sidebar` option of `starlight(...)`).
 *
 * Only literal arrays and objects written in the file are read and edited. Whatever code computes
 * (an import, a spread, a function call) is named in `computed` and left alone.
 *
 * Edits are splices of the original text at the offsets Babel's parser gives each node, with new
 * entries written in the file's own quote style and indentation. A printer that reprints a list
 * whose length changed (recast does) reflows the whole list, joining short lists onto one line and
 * moving a trailing comment onto the next entry, and a config file must stay exactly as its
 * authors wrote it outside the entries that change.
 */
import { parse as babelParse, type ParserPlugin } from '@babel/parser';
import {
  listedByGenerated,
  type NavigationEdit,
  type NavigationEditResult,
  type NavigationItem,
  type NavigationRead,
  type PageKeyOf,
} from './navigation-tree.js';

export type JsNavigationDialect = 'docusaurus' | 'vitepress' | 'starlight';

/** A Babel node, seen only through the fields this module reads. */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/** Where a page reference is written, and how a new spelling of it must be written back. */
interface RefSite {
  literal: AstNode;
  /** The reference in full (for VitePress, with the `base` above it). */
  ref: string;
  /** The VitePress `base` the written link is relative to. */
  base?: string;
  /** A Starlight `link` to a page, written as a path rather than as a slug. */
  pathLink?: boolean;
}

/** One member of a list: an array element or, in an object of categories, a property. */
interface Entry {
  /** The member as written in its list: what goes when the entry is removed. */
  member: AstNode;
  kind: 'page' | 'group' | 'generated' | 'link' | 'other';
  label?: string;
  ref?: RefSite;
  /** The property that gives a group its own page, removed with that page. */
  refProperty?: { owner: AstNode; property: AstNode };
  folder?: string;
  href?: string;
  list?: List;
  /** A whole sidebar or path key: emptied, never removed (other files name it). */
  fixed?: boolean;
}

/** A list of entries; `node` is the literal where it is written, absent when code computes it. */
interface List {
  node?: AstNode;
  /** Why there is no literal to edit, as a phrase for `computed` and for notes. */
  why?: string;
  entries: Entry[];
  base?: string;
  /** How notes name the list. */
  name: string;
}

interface Binding {
  init?: AstNode;
  imported?: string;
  fn?: AstNode;
}

/** What reading a file gives the editor: the parsed nodes and the lists found in it. */
interface Reading {
  text: string;
  root: List;
  computed: string[];
  quote: 'single' | 'double';
}

interface Context {
  text: string;
  scope: Map<string, Binding>;
  computed: string[];
}

const TS_WRAPPERS = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'ParenthesizedExpression',
]);
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

export function readJsNavigation(
  text: string,
  fileName: string,
  dialect: JsNavigationDialect,
): NavigationRead | { error: string } {
  try {
    const reading = readFile(text, fileName, dialect);
    if ('error' in reading) return reading;
    return { items: itemsOf(reading.root), computed: reading.computed };
  } catch (error) {
    return { error: `\`${fileName}\` could not be read: ${messageOf(error)}.` };
  }
}

export function editJsNavigation(
  text: string,
  fileName: string,
  dialect: JsNavigationDialect,
  edit: NavigationEdit,
  key: PageKeyOf,
): NavigationEditResult {
  try {
    const reading = readFile(text, fileName, dialect);
    if ('error' in reading) return unchanged(text, reading.error);
    const plan = new Splices();
    const outcome =
      edit.op === 'add'
        ? planAdd(reading, dialect, edit, key, plan)
        : edit.op === 'remove'
          ? planRemove(reading, edit.ref, key, plan)
          : planRename(reading, edit.from, edit.to, key, plan);
    if (plan.size === 0) return unchanged(text, outcome.note);
    const edited = plan.apply(text);
    if (edited === undefined)
      return unchanged(text, 'the edits to the navigation overlap; nothing was written');
    // An edit that leaves the file unparsable would break the site's build: keep the old text.
    if ('error' in parseFile(edited, fileName)) {
      return unchanged(text, 'the edited navigation would not parse; nothing was written');
    }
    return { text: edited, changed: true, ...(outcome.note ? { note: outcome.note } : {}) };
  } catch (error) {
    return unchanged(text, `the navigation could not be edited: ${messageOf(error)}`);
  }
}

function unchanged(text: string, note?: string): NavigationEditResult {
  return { text, changed: false, ...(note ? { note } : {}) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** TypeScript with JSX first; a TypeScript file with `<T>x` casts parses only with JSX off. */
const PLUGIN_SETS: ParserPlugin[][] = [['typescript', 'jsx'], ['typescript'], ['jsx']];

function parseFile(text: string, fileName: string): { program: AstNode } | { error: string } {
  let first: unknown;
  for (const plugins of PLUGIN_SETS) {
    try {
      const file = babelParse(text, { sourceType: 'module', plugins, tokens: true }) as unknown as {
        program: AstNode;
      };
      return { program: file.program };
    } catch (error) {
      first ??= error;
    }
  }
  return { error: `\`${fileName}\` does not parse as JavaScript or TypeScript: ${messageOf(first)}.` };
}

function readFile(text: string, fileName: string, dialect: JsNavigationDialect): Reading | { error: string } {
  const parsed = parseFile(text, fileName);
  if ('error' in parsed) return parsed;
  const ctx: Context = { text, scope: scopeOf(parsed.program), computed: [] };
  const root =
    dialect === 'docusaurus'
      ? readDocusaurus(parsed.program, ctx)
      : dialect === 'vitepress'
        ? readVitepress(parsed.program, ctx)
        : readStarlight(parsed.program, ctx);
  return { text, root, computed: ctx.computed, quote: quoteOf(parsed.program) };
}

// ---------------------------------------------------------------------------------------------
// Nodes

function isNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function field(node: AstNode, name: string): AstNode | undefined {
  const value = node[name];
  return isNode(value) ? value : undefined;
}

function fields(node: AstNode, name: string): AstNode[] {
  const value = node[name];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

function unwrap(node: AstNode): AstNode {
  let current = node;
  while (TS_WRAPPERS.has(current.type)) {
    const inner = field(current, 'expression');
    if (!inner) break;
    current = inner;
  }
  return current;
}

function stringOf(node: AstNode | undefined): string | undefined {
  if (!node) return undefined;
  const value = unwrap(node);
  if (value.type === 'StringLiteral' && typeof value.value === 'string') return value.value;
  if (value.type === 'TemplateLiteral' && fields(value, 'expressions').length === 0) {
    const quasi = fields(value, 'quasis')[0];
    const cooked = (quasi?.value as { cooked?: unknown } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

function keyName(property: AstNode): string | undefined {
  if (property.type !== 'ObjectProperty' || property.computed === true) return undefined;
  const key = field(property, 'key');
  if (!key) return undefined;
  if (key.type === 'Identifier' && typeof key.name === 'string') return key.name;
  if (key.type === 'NumericLiteral') return String(key.value);
  return stringOf(key);
}

function propertyOf(object: AstNode, name: string): AstNode | undefined {
  return fields(object, 'properties').find((property) => keyName(property) === name);
}

function valueOf(object: AstNode, name: string): AstNode | undefined {
  const property = propertyOf(object, name);
  return property ? field(property, 'value') : undefined;
}

function sourceOf(ctx: Context, node: AstNode, limit = 60): string {
  const source = ctx.text.slice(node.start, node.end).replace(/\s+/g, ' ');
  return source.length > limit ? `${source.slice(0, limit - 1)}…` : source;
}

/** The file's top-level names: literals they are bound to, imports, local functions. */
function scopeOf(program: AstNode): Map<string, Binding> {
  const scope = new Map<string, Binding>();
  for (const statement of fields(program, 'body')) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? field(statement, 'declaration') : statement;
    if (!declaration) continue;
    if (declaration.type === 'ImportDeclaration') {
      const from = stringOf(field(declaration, 'source')) ?? 'another module';
      for (const specifier of fields(declaration, 'specifiers')) {
        const local = field(specifier, 'local');
        if (typeof local?.name === 'string') scope.set(local.name, { imported: from });
      }
    } else if (declaration.type === 'VariableDeclaration') {
      for (const declarator of fields(declaration, 'declarations')) {
        const id = field(declarator, 'id');
        const init = field(declarator, 'init');
        if (id?.type !== 'Identifier' || typeof id.name !== 'string' || !init) continue;
        const value = unwrap(init);
        const isFunction = value.type === 'ArrowFunctionExpression' || value.type === 'FunctionExpression';
        scope.set(id.name, isFunction ? { fn: value } : { init });
      }
    } else if (declaration.type === 'FunctionDeclaration') {
      const id = field(declaration, 'id');
      if (typeof id?.name === 'string') scope.set(id.name, { fn: declaration });
    }
  }
  return scope;
}

/** The expression a local function returns, when its body is nothing but `return <expression>`. */
function returnedBy(fn: AstNode): AstNode | undefined {
  const body = field(fn, 'body');
  if (!body) return undefined;
  if (body.type !== 'BlockStatement') return body;
  const statements = fields(body, 'body');
  const only = statements.length === 1 ? statements[0] : undefined;
  return only?.type === 'ReturnStatement' ? field(only, 'argument') : undefined;
}

type Resolved = { node: AstNode } | { why: string };

/**
 * The literal an expression stands for: the literal itself, the literal a top-level name is bound
 * to, or the literal a local function returns. Anything else gets a phrase naming it.
 */
function resolve(ctx: Context, node: AstNode, subject: string, depth = 0): Resolved {
  const value = unwrap(node);
  if (value.type === 'ObjectExpression' || value.type === 'ArrayExpression') return { node: value };
  if (depth > 8) return { why: `${subject} is computed by code` };
  if (value.type === 'Identifier' && typeof value.name === 'string') {
    const binding = ctx.scope.get(value.name);
    if (binding?.init) return resolve(ctx, binding.init, subject, depth + 1);
    if (binding?.imported) return { why: `${subject} is imported from \`${binding.imported}\`` };
    return { why: `${subject} comes from \`${value.name}\`, which is not a literal in this file` };
  }
  if (value.type === 'CallExpression') {
    const callee = field(value, 'callee');
    const name = callee?.type === 'Identifier' && typeof callee.name === 'string' ? callee.name : undefined;
    const fn = name ? ctx.scope.get(name)?.fn : undefined;
    const returned = fn ? returnedBy(fn) : undefined;
    if (returned) return resolve(ctx, returned, subject, depth + 1);
    return { why: `${subject} is built by \`${callee ? sourceOf(ctx, callee, 40) : 'a call'}()\`` };
  }
  return { why: `${subject} is computed by code (\`${sourceOf(ctx, value)}\`)` };
}

/** Like `resolve`, but a call whose first argument is the object (`defineConfig({...})`) gives that object. */
function resolveConfig(ctx: Context, node: AstNode, subject: string, depth = 0): Resolved {
  const value = unwrap(node);
  if (depth < 8 && value.type === 'CallExpression') {
    const first = fields(value, 'arguments')[0];
    const direct = resolve(ctx, value, subject);
    if ('node' in direct || !first) return direct;
    return resolveConfig(ctx, first, subject, depth + 1);
  }
  if (depth < 8 && value.type === 'Identifier' && typeof value.name === 'string') {
    const init = ctx.scope.get(value.name)?.init;
    if (init) return resolveConfig(ctx, init, subject, depth + 1);
  }
  return resolve(ctx, value, subject);
}

/** The value a file exports as its default: `export default x` or `module.exports = x`. */
function defaultExport(program: AstNode): AstNode | undefined {
  for (const statement of fields(program, 'body')) {
    if (statement.type === 'ExportDefaultDeclaration') return field(statement, 'declaration');
    const expression = statement.type === 'ExpressionStatement' ? field(statement, 'expression') : undefined;
    if (expression?.type !== 'AssignmentExpression') continue;
    const left = field(expression, 'left');
    const object = left?.type === 'MemberExpression' ? field(left, 'object') : undefined;
    const property = left?.type === 'MemberExpression' ? field(left, 'property') : undefined;
    if (object?.name === 'module' && property?.name === 'exports') return field(expression, 'right');
  }
  return undefined;
}

function emptyList(name: string, why?: string): List {
  return { entries: [], name, ...(why ? { why } : {}) };
}

/** A list from an expression: the literal array it stands for, its spreads reported as computed. */
function readList(
  ctx: Context,
  node: AstNode | undefined,
  name: string,
  readEntry: (element: AstNode, value: AstNode, base: string | undefined) => Entry | undefined,
  base?: string,
): List {
  if (!node) return emptyList(name);
  const resolved = resolve(ctx, node, name);
  if ('why' in resolved) {
    ctx.computed.push(resolved.why);
    return emptyList(name, resolved.why);
  }
  if (resolved.node.type !== 'ArrayExpression') {
    const why = `${name} is not a list`;
    ctx.computed.push(why);
    return emptyList(name, why);
  }
  const list: List = { node: resolved.node, entries: [], name, ...(base !== undefined ? { base } : {}) };
  for (const element of fields(resolved.node, 'elements')) {
    if (element.type === 'SpreadElement') {
      const argument = field(element, 'argument');
      ctx.computed.push(`${name} includes \`...${argument ? sourceOf(ctx, argument, 40) : ''}\``);
      continue;
    }
    const value = resolve(ctx, element, `an item of ${name}`);
    if ('why' in value) {
      if (stringOf(element) === undefined) {
        ctx.computed.push(value.why);
        continue;
      }
    }
    const entry = readEntry(element, 'node' in value ? value.node : unwrap(element), base);
    if (entry) list.entries.push(entry);
  }
  return list;
}

function labelOf(ctx: Context, object: AstNode, name: string): string | undefined {
  const value = valueOf(object, name);
  if (!value) return undefined;
  return stringOf(value) ?? sourceOf(ctx, value);
}

function refSite(
  node: AstNode | undefined,
  extra: Omit<RefSite, 'literal' | 'ref'> = {},
): RefSite | undefined {
  const written = stringOf(node);
  if (!node || written === undefined) return undefined;
  const ref = extra.base !== undefined ? joinBase(extra.base, written) : written;
  return { literal: unwrap(node), ref, ...extra };
}

function joinBase(base: string, link: string): string {
  if (base.endsWith('/') && link.startsWith('/')) return base + link.slice(1);
  return base + link;
}

// ---------------------------------------------------------------------------------------------
// Docusaurus

function readDocusaurus(program: AstNode, ctx: Context): List {
  const exported = defaultExport(program);
  if (!exported) return emptyList('the sidebars');
  const resolved = resolveConfig(ctx, exported, 'the exported sidebars');
  if ('why' in resolved) {
    ctx.computed.push(resolved.why);
    return emptyList('the sidebars', resolved.why);
  }
  if (resolved.node.type !== 'ObjectExpression') return emptyList('the sidebars');
  const sidebars = fields(resolved.node, 'properties').flatMap((property) => {
    const name = keyName(property);
    const value = field(property, 'value');
    return name !== undefined && value ? [{ property, name, value }] : [];
  });
  const lists = sidebars.map(({ name, value }) => docusaurusSidebar(ctx, value, `\`${name}\``));
  if (sidebars.length === 1 && lists[0]) return lists[0];
  return {
    node: resolved.node,
    name: 'the sidebars',
    entries: sidebars.map(({ property, name }, index) => ({
      member: property,
      kind: 'group',
      label: name,
      list: lists[index] ?? emptyList(name),
      fixed: true,
    })),
  };
}

/** A sidebar: a list of items, or an object whose every key is a category of items. */
function docusaurusSidebar(ctx: Context, value: AstNode, name: string): List {
  const resolved = resolve(ctx, value, name);
  if ('node' in resolved && resolved.node.type === 'ObjectExpression') {
    return { node: resolved.node, name, entries: docusaurusCategoryObject(ctx, resolved.node) };
  }
  return readList(ctx, value, name, (element, item) => docusaurusItem(ctx, element, item));
}

function docusaurusCategoryObject(ctx: Context, object: AstNode): Entry[] {
  return fields(object, 'properties').flatMap((property) => {
    const label = keyName(property);
    const value = field(property, 'value');
    if (label === undefined || !value) return [];
    const list = readList(ctx, value, `the list of \`${label}\``, (element, item) =>
      docusaurusItem(ctx, element, item),
    );
    return [{ member: property, kind: 'group', label, list } satisfies Entry];
  });
}

function docusaurusItem(ctx: Context, member: AstNode, value: AstNode): Entry | undefined {
  const id = refSite(value);
  if (id) return { member, kind: 'page', ref: id };
  if (value.type !== 'ObjectExpression') return undefined;
  const type = stringOf(valueOf(value, 'type'));
  const label = labelOf(ctx, value, 'label');
  const withLabel = label !== undefined ? { label } : {};
  switch (type) {
    case 'doc':
    case 'ref': {
      const ref = refSite(valueOf(value, 'id'));
      return ref ? { member, kind: 'page', ref, ...withLabel } : undefined;
    }
    case 'category': {
      const title = label ?? 'category';
      const list = readList(ctx, valueOf(value, 'items'), `the list of \`${title}\``, (element, item) =>
        docusaurusItem(ctx, element, item),
      );
      const linkProperty = propertyOf(value, 'link');
      const link = linkProperty ? field(linkProperty, 'value') : undefined;
      const linked = link?.type === 'ObjectExpression' && stringOf(valueOf(link, 'type')) === 'doc';
      const ref = linked ? refSite(valueOf(link, 'id')) : undefined;
      return {
        member,
        kind: 'group',
        label: title,
        list,
        ...(ref && linkProperty ? { ref, refProperty: { owner: value, property: linkProperty } } : {}),
      };
    }
    case 'autogenerated': {
      const dirName = stringOf(valueOf(value, 'dirName')) ?? '.';
      return { member, kind: 'generated', folder: folderForm(dirName), ...withLabel };
    }
    case 'link': {
      const href = stringOf(valueOf(value, 'href'));
      return href !== undefined ? { member, kind: 'link', href, ...withLabel } : undefined;
    }
    case undefined:
      return docusaurusShorthand(ctx, member, value);
    default:
      return { member, kind: 'other' };
  }
}

/** `{ 'Label': [ ...items ] }`: a category written as one key mapping to its items. */
function docusaurusShorthand(ctx: Context, member: AstNode, value: AstNode): Entry | undefined {
  const properties = fields(value, 'properties');
  const only = properties.length === 1 ? properties[0] : undefined;
  const label = only ? keyName(only) : undefined;
  const items = only ? field(only, 'value') : undefined;
  if (label === undefined || !items) return { member, kind: 'other' };
  const list = readList(ctx, items, `the list of \`${label}\``, (element, item) =>
    docusaurusItem(ctx, element, item),
  );
  return { member, kind: 'group', label, list };
}

/** A generated entry's folder in page-key form: no leading or trailing slash, `.` for all. */
function folderForm(directory: string): string {
  const trimmed = directory.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

// ---------------------------------------------------------------------------------------------
// VitePress

function readVitepress(program: AstNode, ctx: Context): List {
  const config = vitepressConfig(program, ctx);
  if (!config) return emptyList('`sidebar`');
  const themeNode = valueOf(config, 'themeConfig');
  if (!themeNode) return emptyList('`sidebar`');
  const theme = resolve(ctx, themeNode, '`themeConfig`');
  if ('why' in theme) {
    ctx.computed.push(theme.why);
    return emptyList('`sidebar`', theme.why);
  }
  const sidebar = valueOf(theme.node, 'sidebar');
  if (!sidebar) return emptyList('`sidebar`');
  const resolved = resolve(ctx, sidebar, '`sidebar`');
  if ('node' in resolved && resolved.node.type === 'ObjectExpression') {
    return vitepressMultiSidebar(ctx, resolved.node);
  }
  return readList(ctx, sidebar, '`sidebar`', (element, item, base) =>
    vitepressItem(ctx, element, item, base),
  );
}

function vitepressConfig(program: AstNode, ctx: Context): AstNode | undefined {
  const exported = defaultExport(program);
  const candidates = exported ? [exported] : exportedConsts(program);
  for (const candidate of candidates) {
    const resolved = resolveConfig(ctx, candidate, 'the config');
    if ('node' in resolved && resolved.node.type === 'ObjectExpression') {
      if (exported || propertyOf(resolved.node, 'themeConfig')) return resolved.node;
    } else if (exported && 'why' in resolved) ctx.computed.push(resolved.why);
  }
  return undefined;
}

/** `export const en = defineConfig({...})`: how a VitePress site splits its config per locale. */
function exportedConsts(program: AstNode): AstNode[] {
  return fields(program, 'body').flatMap((statement) => {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? field(statement, 'declaration') : undefined;
    if (declaration?.type !== 'VariableDeclaration') return [];
    return fields(declaration, 'declarations').flatMap((declarator) => {
      const init = field(declarator, 'init');
      return init ? [init] : [];
    });
  });
}

/** `{ '/guide/': [...] }` or `{ '/guide/': { base, items } }`: one group per path prefix. */
function vitepressMultiSidebar(ctx: Context, object: AstNode): List {
  const entries = fields(object, 'properties').flatMap((property): Entry[] => {
    const prefix = keyName(property);
    const value = field(property, 'value');
    if (prefix === undefined || !value) return [];
    const name = `\`sidebar['${prefix}']\``;
    const resolved = resolve(ctx, value, name);
    let list: List;
    if ('node' in resolved && resolved.node.type === 'ObjectExpression') {
      const base = stringOf(valueOf(resolved.node, 'base'));
      list = readList(
        ctx,
        valueOf(resolved.node, 'items'),
        name,
        (element, item, inherited) => vitepressItem(ctx, element, item, inherited),
        base,
      );
    } else {
      list = readList(ctx, value, name, (element, item, base) => vitepressItem(ctx, element, item, base));
    }
    return [{ member: property, kind: 'group', label: prefix, list, fixed: true }];
  });
  return { node: object, name: '`sidebar`', entries };
}

function vitepressItem(ctx: Context, member: AstNode, value: AstNode, inherited?: string): Entry | undefined {
  if (value.type !== 'ObjectExpression') return { member, kind: 'other' };
  const base = stringOf(valueOf(value, 'base')) ?? inherited;
  const label = labelOf(ctx, value, 'text');
  const withLabel = label !== undefined ? { label } : {};
  const linkProperty = propertyOf(value, 'link');
  const linkNode = linkProperty ? field(linkProperty, 'value') : undefined;
  const link = stringOf(linkNode);
  const external = link !== undefined && EXTERNAL.test(link);
  const ref = external ? undefined : refSite(linkNode, base !== undefined ? { base } : {});
  const itemsNode = valueOf(value, 'items');
  if (itemsNode) {
    const title = label ?? 'group';
    const list = readList(
      ctx,
      itemsNode,
      `the list of \`${title}\``,
      (element, item, above) => vitepressItem(ctx, element, item, above),
      base,
    );
    return {
      member,
      kind: 'group',
      label: title,
      list,
      ...(ref && linkProperty ? { ref, refProperty: { owner: value, property: linkProperty } } : {}),
    };
  }
  if (external) return { member, kind: 'link', href: link, ...withLabel };
  return ref ? { member, kind: 'page', ref, ...withLabel } : { member, kind: 'other' };
}

// ---------------------------------------------------------------------------------------------
// Starlight

function readStarlight(program: AstNode, ctx: Context): List {
  const call = starlightCall(program);
  const options = call ? fields(call, 'arguments')[0] : undefined;
  if (!options) return emptyList('`sidebar`');
  const resolved = resolve(ctx, options, 'the Starlight options');
  if ('why' in resolved) {
    ctx.computed.push(resolved.why);
    return emptyList('`sidebar`', resolved.why);
  }
  const sidebar = valueOf(resolved.node, 'sidebar');
  if (!sidebar) return emptyList('`sidebar`');
  return readList(ctx, sidebar, '`sidebar`', (element, item) => starlightItem(ctx, element, item));
}

/** The `starlight(...)` call, by the name its default import was given. */
function starlightCall(program: AstNode): AstNode | undefined {
  let name = 'starlight';
  for (const statement of fields(program, 'body')) {
    if (
      statement.type !== 'ImportDeclaration' ||
      stringOf(field(statement, 'source')) !== '@astrojs/starlight'
    ) {
      continue;
    }
    const specifier = fields(statement, 'specifiers').find((s) => s.type === 'ImportDefaultSpecifier');
    const local = specifier ? field(specifier, 'local') : undefined;
    if (typeof local?.name === 'string') name = local.name;
  }
  return findNode(program, (node) => {
    const callee = node.type === 'CallExpression' ? field(node, 'callee') : undefined;
    return callee?.type === 'Identifier' && callee.name === name;
  });
}

const SKIPPED_FIELDS = new Set(['loc', 'extra', 'comments', 'leadingComments', 'trailingComments', 'tokens']);

function findNode(node: AstNode, test: (node: AstNode) => boolean): AstNode | undefined {
  if (test(node)) return node;
  for (const [name, value] of Object.entries(node)) {
    if (SKIPPED_FIELDS.has(name)) continue;
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      const found = isNode(child) ? findNode(child, test) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

function starlightItem(ctx: Context, member: AstNode, value: AstNode): Entry | undefined {
  const slug = refSite(value);
  if (slug) return { member, kind: 'page', ref: slug };
  if (value.type !== 'ObjectExpression') return { member, kind: 'other' };
  const label = labelOf(ctx, value, 'label');
  const withLabel = label !== undefined ? { label } : {};
  const slugRef = refSite(valueOf(value, 'slug'));
  if (slugRef) return { member, kind: 'page', ref: slugRef, ...withLabel };
  const itemsNode = valueOf(value, 'items');
  if (itemsNode) {
    const title = label ?? 'group';
    const list = readList(ctx, itemsNode, `the list of \`${title}\``, (element, item) =>
      starlightItem(ctx, element, item),
    );
    return { member, kind: 'group', label: title, list };
  }
  const autogenerate = valueOf(value, 'autogenerate');
  if (autogenerate?.type === 'ObjectExpression') {
    const directory = stringOf(valueOf(autogenerate, 'directory')) ?? '';
    return { member, kind: 'generated', folder: folderForm(directory), ...withLabel };
  }
  const linkNode = valueOf(value, 'link');
  const link = stringOf(linkNode);
  if (link === undefined) return { member, kind: 'other' };
  // A link to `/guides/setup/` names a page of the site, so it is read (and renamed) as one.
  if (link.startsWith('/')) {
    const ref = refSite(linkNode, { pathLink: true });
    return ref ? { member, kind: 'page', ref, ...withLabel } : undefined;
  }
  return { member, kind: 'link', href: link, ...withLabel };
}

// ---------------------------------------------------------------------------------------------
// Items

function itemsOf(list: List): NavigationItem[] {
  return list.entries.flatMap((entry): NavigationItem[] => {
    const label = entry.label !== undefined ? { label: entry.label } : {};
    switch (entry.kind) {
      case 'page':
        return entry.ref ? [{ kind: 'page', ref: entry.ref.ref, ...label }] : [];
      case 'group':
        return [
          {
            kind: 'group',
            label: entry.label ?? '',
            items: entry.list ? itemsOf(entry.list) : [],
            ...(entry.ref ? { ref: entry.ref.ref } : {}),
          },
        ];
      case 'generated':
        return [{ kind: 'generated', folder: entry.folder ?? '', ...label }];
      case 'link':
        return [{ kind: 'link', href: entry.href ?? '', ...label }];
      case 'other':
        return [];
    }
  });
}

/** Every list, depth first in file order. */
function allLists(list: List): List[] {
  return [list, ...list.entries.flatMap((entry) => (entry.list ? allLists(entry.list) : []))];
}

/** Every group entry, depth first in file order. */
function allGroups(list: List): Entry[] {
  return list.entries.flatMap((entry) =>
    entry.kind === 'group' ? [entry, ...(entry.list ? allGroups(entry.list) : [])] : [],
  );
}

function folderOf(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

// ---------------------------------------------------------------------------------------------
// Edits

interface Outcome {
  note?: string;
}

function planAdd(
  reading: Reading,
  dialect: JsNavigationDialect,
  edit: Extract<NavigationEdit, { op: 'add' }>,
  key: PageKeyOf,
  plan: Splices,
): Outcome {
  const target = key(edit.ref);
  const items = itemsOf(reading.root);
  if (listedByGenerated(items, target)) {
    return { note: `\`${edit.ref}\` is already listed by ${generatedEntryListing(reading.root, target)}` };
  }
  const listed = findPage(reading.root, (ref) => key(ref.ref) === target);
  if (listed) return { note: `\`${edit.ref}\` is already in the navigation (in ${listed.list.name})` };

  const place = placeFor(reading.root, edit, target, key);
  if ('note' in place) return place;
  const { list, after, before } = place;
  if (!list.node || list.node.type !== 'ArrayExpression') {
    return { note: `cannot add \`${edit.ref}\` to ${list.name}: ${list.why ?? 'it is not a list of pages'}` };
  }
  const written = writtenRef(edit.ref, list.base);
  if (written === undefined) {
    return { note: `cannot add \`${edit.ref}\` to ${list.name}: its links are relative to \`${list.base}\`` };
  }
  const entry = newEntry(reading, dialect, list, written, edit.label);
  insertMember(reading.text, list.node, entry, plan, after, before);
  return place.note ? { note: place.note } : {};
}

/** Which generated entry lists a page, for the note that says why nothing was added. */
function generatedEntryListing(root: List, target: string): string {
  for (const list of allLists(root)) {
    for (const entry of list.entries) {
      if (entry.kind !== 'generated') continue;
      const folder = entry.folder ?? '';
      if (folder === '' || target === folder || target.startsWith(`${folder}/`)) {
        const label = entry.label !== undefined ? ` \`${entry.label}\`` : '';
        return `the generated entry${label} for ${folder === '' ? 'all pages' : `\`${folder}\``}`;
      }
    }
  }
  return 'a generated entry';
}

function findPage(root: List, test: (ref: RefSite) => boolean): { list: List; entry: Entry } | undefined {
  for (const list of allLists(root)) {
    for (const entry of list.entries) {
      if (entry.ref && test(entry.ref)) return { list, entry };
    }
  }
  return undefined;
}

type Place = { list: List; after?: AstNode; before?: AstNode; note?: string } | { note: string };

/** Where a new page goes: its group, after a given page, among its folder's pages, or at the end. */
function placeFor(
  root: List,
  edit: Extract<NavigationEdit, { op: 'add' }>,
  target: string,
  key: PageKeyOf,
): Place {
  let note: string | undefined;
  if (edit.group !== undefined) {
    const wanted = edit.group.toLowerCase();
    const group = allGroups(root).find((entry) => entry.label?.toLowerCase() === wanted);
    if (group?.list) return { list: group.list, ...lastMember(group.list) };
    note = `there is no group \`${edit.group}\`, so the page was placed by its neighbours`;
  }
  const withNote = note ? { note } : {};
  if (edit.after !== undefined) {
    const afterKey = key(edit.after);
    const found = findPage(root, (ref) => key(ref.ref) === afterKey);
    if (found?.entry.kind === 'group' && found.entry.list) {
      // A group's own page comes before its items, so "right after" it is the group's first item.
      const first = found.entry.list.node ? fields(found.entry.list.node, 'elements')[0] : undefined;
      return { list: found.entry.list, ...(first ? { before: first } : {}), ...withNote };
    }
    if (found) return { list: found.list, after: found.entry.member, ...withNote };
  }
  const sibling = siblingPlace(root, target, key);
  if (sibling) return { ...sibling, ...withNote };
  const first = firstTopLevelList(root);
  if (!first) return { note: `there is no list to add to: ${root.why ?? `the file has no ${root.name}`}` };
  return { list: first, ...lastMember(first), ...withNote };
}

function lastMember(list: List): { after?: AstNode } {
  const last = list.node?.type === 'ArrayExpression' ? fields(list.node, 'elements').at(-1) : undefined;
  return last ? { after: last } : {};
}

/** After the last page of the same folder, in the list that has most pages of that folder. */
function siblingPlace(
  root: List,
  target: string,
  key: PageKeyOf,
): { list: List; after: AstNode } | undefined {
  const folder = folderOf(target);
  let best: { list: List; after: AstNode; count: number } | undefined;
  for (const list of allLists(root)) {
    if (list.node?.type !== 'ArrayExpression') continue;
    const siblings = list.entries.filter(
      (entry) => entry.kind === 'page' && entry.ref && folderOf(key(entry.ref.ref)) === folder,
    );
    const last = siblings.at(-1);
    if (last && siblings.length > (best?.count ?? 0)) {
      best = { list, after: last.member, count: siblings.length };
    }
  }
  return best ? { list: best.list, after: best.after } : undefined;
}

/** The first list of the navigation itself, or of its first sidebar when there are several. */
function firstTopLevelList(root: List): List | undefined {
  if (root.node?.type === 'ArrayExpression') return root;
  const first = root.entries[0];
  return first?.fixed ? first.list : root.node ? root : undefined;
}

function writtenRef(ref: string, base: string | undefined): string | undefined {
  if (base === undefined) return ref;
  if (ref.startsWith(base)) return ref.slice(base.length);
  if (base.endsWith('/') && ref.startsWith(base.slice(0, -1))) {
    const rest = ref.slice(base.length - 1);
    return rest === '' || rest.startsWith('/') ? rest.replace(/^\//, '') : undefined;
  }
  return undefined;
}

function newEntry(
  reading: Reading,
  dialect: JsNavigationDialect,
  list: List,
  ref: string,
  label: string,
): string {
  const quote = (value: string): string => printString(value, reading.quote);
  if (dialect === 'docusaurus') return quote(ref);
  if (dialect === 'vitepress') return `{ text: ${quote(label)}, link: ${quote(ref)} }`;
  const elements = list.node ? fields(list.node, 'elements') : [];
  const strings = elements.some((element) => element.type === 'StringLiteral');
  const objects = elements.some(
    (element) => element.type === 'ObjectExpression' && propertyOf(element, 'slug'),
  );
  return strings && !objects ? quote(ref) : `{ label: ${quote(label)}, slug: ${quote(ref)} }`;
}

/** A JavaScript string literal of `value` in the file's quote style. */
function printString(value: string, quote: 'single' | 'double'): string {
  const mark = quote === 'single' ? "'" : '"';
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replaceAll(mark, `\\${mark}`);
  return `${mark}${escaped}${mark}`;
}

/** The quote most string literals of the file use, for the ones the editor writes. */
function quoteOf(program: AstNode): 'single' | 'double' {
  let single = 0;
  let double = 0;
  findNode(program, (node) => {
    const raw = (node.extra as { raw?: unknown } | undefined)?.raw;
    if (node.type === 'StringLiteral' && typeof raw === 'string') {
      if (raw.startsWith("'")) single += 1;
      else double += 1;
    }
    return false;
  });
  return double > single ? 'double' : 'single';
}

function planRemove(reading: Reading, ref: string, key: PageKeyOf, plan: Splices): Outcome {
  const target = key(ref);
  const removal = new Removal(reading.text);
  removeFrom(reading.root, target, key, removal);
  removal.plan(plan);
  const generated = listedByGenerated(itemsOf(reading.root), target);
  if (plan.size === 0) {
    return {
      note: generated
        ? `\`${ref}\` is listed by ${generatedEntryListing(reading.root, target)}, which lists the folder's pages by itself`
        : `\`${ref}\` is not in the navigation`,
    };
  }
  return generated ? { note: `${generatedEntryListing(reading.root, target)} still lists \`${ref}\`` } : {};
}

/**
 * Marks every entry of the page for removal, and the groups left with nothing. Returns how many
 * members the list keeps, or undefined when that cannot be known (a computed list).
 */
function removeFrom(list: List, target: string, key: PageKeyOf, removal: Removal): number | undefined {
  if (!list.node) return undefined;
  const gone = new Set<AstNode>();
  for (const entry of list.entries) {
    if (entry.kind === 'page' && entry.ref && key(entry.ref.ref) === target) {
      gone.add(entry.member);
      continue;
    }
    if (entry.kind !== 'group' || !entry.list) continue;
    const inner = new Removal(removal.text);
    const refGone = entry.ref !== undefined && key(entry.ref.ref) === target;
    const kept = removeFrom(entry.list, target, key, inner);
    const emptied = kept === 0 && (inner.size > 0 || refGone) && (!entry.ref || refGone);
    if (emptied && !entry.fixed) {
      gone.add(entry.member);
      continue;
    }
    removal.merge(inner);
    if (refGone && entry.refProperty) removal.add(entry.refProperty.owner, entry.refProperty.property);
  }
  for (const member of gone) removal.add(list.node, member);
  return membersOf(list.node).length - gone.size;
}

function planRename(reading: Reading, from: string, to: string, key: PageKeyOf, plan: Splices): Outcome {
  const target = key(from);
  const skipped: string[] = [];
  for (const list of allLists(reading.root)) {
    for (const entry of list.entries) {
      const site = entry.ref;
      if (!site || key(site.ref) !== target) continue;
      const written = site.pathLink
        ? asPathLike(to, stringOf(site.literal) ?? '')
        : writtenRef(to, site.base);
      if (written === undefined) {
        skipped.push(`the link in ${list.name} is relative to \`${site.base}\``);
        continue;
      }
      plan.add(site.literal.start, site.literal.end, rewrittenLiteral(reading.text, site.literal, written));
    }
  }
  if (plan.size === 0) {
    if (skipped.length > 0) return { note: `\`${from}\` was not renamed: ${skipped.join('; ')}` };
    const generated = listedByGenerated(itemsOf(reading.root), target);
    return {
      note: generated
        ? `\`${from}\` is listed by ${generatedEntryListing(reading.root, target)}; there is no entry to rename`
        : `\`${from}\` is not in the navigation`,
    };
  }
  return skipped.length > 0 ? { note: `some entries were left: ${skipped.join('; ')}` } : {};
}

/** A Starlight link keeps its path form: a leading slash, and a trailing one if it had one. */
function asPathLike(to: string, old: string): string {
  let path = to.startsWith('/') ? to : `/${to}`;
  if (old.endsWith('/') && !path.endsWith('/')) path += '/';
  return path;
}

/** A literal with a new value, in the quotes it was written with. */
function rewrittenLiteral(text: string, literal: AstNode, value: string): string {
  const opening = text[literal.start];
  if (opening === '`') return `\`${value.replace(/[`\\]|\$\{/g, (match) => `\\${match}`)}\``;
  return printString(value, opening === '"' ? 'double' : 'single');
}

// ---------------------------------------------------------------------------------------------
// Text splices

/** Replacements of ranges of the original text, applied together. */
class Splices {
  private readonly splices = new Map<string, { start: number; end: number; text: string }>();

  get size(): number {
    return this.splices.size;
  }

  add(start: number, end: number, text: string): void {
    // The same literal reached twice (a list bound to a name used in two places) is edited once.
    this.splices.set(`${start}:${end}:${text}`, { start, end, text });
  }

  /** The edited text, or undefined when two splices would overlap. */
  apply(text: string): string | undefined {
    const ordered = [...this.splices.values()].sort((a, b) => a.start - b.start || a.end - b.end);
    let result = '';
    let position = 0;
    for (const splice of ordered) {
      if (splice.start < position) return undefined;
      result += text.slice(position, splice.start) + splice.text;
      position = splice.end;
    }
    return result + text.slice(position);
  }
}

/** Members to remove, by the list (array or object) they belong to. */
class Removal {
  private readonly lists = new Map<AstNode, Set<AstNode>>();

  constructor(readonly text: string) {}

  get size(): number {
    return this.lists.size;
  }

  add(list: AstNode, member: AstNode): void {
    const members = this.lists.get(list) ?? new Set<AstNode>();
    members.add(member);
    this.lists.set(list, members);
  }

  merge(other: Removal): void {
    for (const [list, members] of other.lists) for (const member of members) this.add(list, member);
  }

  plan(splices: Splices): void {
    for (const [list, members] of this.lists) removeMembers(this.text, list, members, splices);
  }
}

function membersOf(list: AstNode): AstNode[] {
  return list.type === 'ArrayExpression' ? fields(list, 'elements') : fields(list, 'properties');
}

function lineStart(text: string, position: number): number {
  return text.lastIndexOf('\n', position - 1) + 1;
}

/** Skips spaces, tabs and block comments on the same line; returns where something else starts. */
function skipInline(text: string, position: number): number {
  let at = position;
  for (;;) {
    while (text[at] === ' ' || text[at] === '\t') at += 1;
    if (!text.startsWith('/*', at)) return at;
    const close = text.indexOf('*/', at + 2);
    if (close < 0 || text.slice(at, close).includes('\n')) return at;
    at = close + 2;
  }
}

/** The comma right after a member (past spaces and comments), if there is one. */
function commaAfter(text: string, end: number): number | undefined {
  let at = end;
  for (;;) {
    at = skipInline(text, at);
    if (text[at] === '\n' || text[at] === '\r') at += 1;
    else if (text.startsWith('//', at))
      at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    else break;
  }
  return text[at] === ',' ? at : undefined;
}

/** Where the line ends after a position, when only spaces and comments follow it there. */
function lineEndAfter(text: string, position: number): number | undefined {
  let at = skipInline(text, position);
  if (text.startsWith('//', at)) {
    const newline = text.indexOf('\n', at);
    at = newline < 0 ? text.length : newline;
  }
  if (text[at] === '\r') at += 1;
  return at >= text.length || text[at] === '\n' ? at : undefined;
}

/** A member with nothing but indentation before it and its comma or a comment after it on its lines. */
function ownLine(text: string, member: AstNode): { start: number; end: number } | undefined {
  const start = lineStart(text, member.start);
  if (text.slice(start, member.start).trim() !== '') return undefined;
  const comma = commaAfter(text, member.end);
  const sameLineComma = comma !== undefined && !text.slice(member.end, comma).includes('\n');
  const end = lineEndAfter(text, sameLineComma ? comma + 1 : member.end);
  return end === undefined ? undefined : { start, end: Math.min(end + 1, text.length) };
}

function hasComment(text: string): boolean {
  return text.includes('//') || text.includes('/*');
}

function removeMembers(text: string, list: AstNode, gone: Set<AstNode>, splices: Splices): void {
  const members = membersOf(list);
  const open = list.start + 1;
  const close = list.end - 1;
  if (
    members.every((member) => gone.has(member)) &&
    !hasComment(text.slice(open, close).replace(/'[^']*'|"[^"]*"/g, ''))
  ) {
    splices.add(open, close, '');
    return;
  }
  const lastKept = members.findLastIndex((member) => !gone.has(member));
  for (const [first, last] of runs(members, gone)) {
    const run = members.slice(first, last + 1);
    const lines = run.map((member) => ownLine(text, member));
    if (lines.every((line) => line !== undefined)) {
      for (const line of lines) if (line) splices.add(line.start, line.end, '');
      const lastMember = members[last];
      const keptMember = members[lastKept];
      // Dropping the last members must not leave a trailing comma the list did not have.
      if (
        last === members.length - 1 &&
        lastMember &&
        commaAfter(text, lastMember.end) === undefined &&
        keptMember
      ) {
        const comma = commaAfter(text, keptMember.end);
        if (comma !== undefined) splices.add(comma, comma + 1, '');
      }
      continue;
    }
    const next = members[last + 1];
    const previous = members[first - 1];
    const firstMember = members[first];
    const lastMember = members[last];
    if (!firstMember || !lastMember) continue;
    if (next) splices.add(firstMember.start, next.start, '');
    else if (previous) splices.add(previous.end, lastMember.end, '');
    else splices.add(firstMember.start, lastMember.end, '');
  }
}

/** Runs of consecutive removed members, as [first, last] index pairs. */
function runs(members: AstNode[], gone: Set<AstNode>): [number, number][] {
  const result: [number, number][] = [];
  members.forEach((member, index) => {
    if (!gone.has(member)) return;
    const current = result.at(-1);
    if (current && current[1] === index - 1) current[1] = index;
    else result.push([index, index]);
  });
  return result;
}

/** Inserts a member's text after `after`, before `before`, or into the empty list. */
function insertMember(
  text: string,
  list: AstNode,
  entry: string,
  splices: Splices,
  after?: AstNode,
  before?: AstNode,
): void {
  if (after) {
    const comma = commaAfter(text, after.end);
    const line = ownLine(text, after);
    if (!line) {
      splices.add(after.end, after.end, `, ${entry}`);
      return;
    }
    const indent = text.slice(line.start, after.start);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const lineEnd = line.end > 0 && text[line.end - 1] === '\n' ? line.end - 1 : line.end;
    const end = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    if (comma !== undefined) {
      splices.add(end, end, `${eol}${indent}${entry},`);
    } else if (end === after.end) {
      splices.add(end, end, `,${eol}${indent}${entry}`);
    } else {
      splices.add(after.end, after.end, ',');
      splices.add(end, end, `${eol}${indent}${entry}`);
    }
    return;
  }
  if (before) {
    const line = ownLine(text, before);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    if (line) splices.add(line.start, line.start, `${text.slice(line.start, before.start)}${entry},${eol}`);
    else splices.add(before.start, before.start, `${entry}, `);
    return;
  }
  const inner = text.slice(list.start + 1, list.end - 1);
  if (inner.trim() === '') splices.add(list.start + 1, list.end - 1, entry);
  else splices.add(list.end - 1, list.end - 1, entry);
}
