/**
 * The docs-sync cases (`../shared/docs-sync`, beside the repository): real commits whose code change
 * made docs pages stale, and commits that made none stale. Each case is read into memory: the
 * patch, and the pages of its docs tarball relative to the docs root.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';

/** Where the cases live: `../shared/docs-sync` relative to the repository root. */
export const DOCS_SYNC_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)), '../shared/docs-sync');

export interface DocsSyncCase {
  id: string;
  repo: string;
  kind: string;
  docsRoot: string;
  /** Pages the commit changed, relative to the docs root; empty for a negative case. */
  expected: string[];
  /** Pages neither right nor wrong to list (left out by the case, or added by the commit). */
  neutral: string[];
  patch: string;
  /** Every text file of the docs root, relative to it. */
  files: { path: string; text: string }[];
}

/** Whether the cases are there to read. */
export function hasDocsSyncCases(dir = DOCS_SYNC_DIR): boolean {
  return existsSync(join(dir, 'cases'));
}

/** Every case, in the order of the cases folder (sorted by id). */
export async function loadDocsSyncCases(
  dir = DOCS_SYNC_DIR,
  ids?: readonly string[],
): Promise<DocsSyncCase[]> {
  const cases: DocsSyncCase[] = [];
  const wanted = ids ? new Set(ids) : undefined;
  for (const id of readdirSync(join(dir, 'cases')).sort()) {
    if (wanted && !wanted.has(id)) continue;
    const folder = join(dir, 'cases', id);
    const meta = JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8'));
    const files = await readTarball(readFileSync(join(folder, 'docs.tar.gz')), meta.docsRoot as string);
    cases.push({
      id,
      repo: meta.repo,
      kind: meta.kind,
      docsRoot: meta.docsRoot,
      expected: meta.expected,
      neutral: [...Object.keys(meta.excludedDocs ?? {}), ...(meta.addedDocs ?? [])],
      patch: readFileSync(join(folder, 'code.patch'), 'utf8'),
      files,
    });
  }
  return cases;
}

/** The regular files of a gzipped tarball whose entries sit under `<docsRoot>/`, relative to it. */
async function readTarball(gzipped: Buffer, docsRoot: string): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  const archive = extract();
  Readable.from([gunzipSync(gzipped)]).pipe(archive);
  const prefix = `${docsRoot.replace(/\/+$/, '')}/`;
  for await (const entry of archive) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const name = entry.header.name.replace(/^\.\//, '');
    if (entry.header.type !== 'file' || !name.startsWith(prefix)) continue;
    files.push({ path: name.slice(prefix.length), text: Buffer.concat(chunks).toString('utf8') });
  }
  return files;
}
