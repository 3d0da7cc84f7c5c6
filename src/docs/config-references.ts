import { posix } from 'node:path';

/** Reads a JSON file by path relative to the docs root; undefined when it is missing or invalid. */
export type JsonReader = (path: string) => unknown;

/** A reference cycle or a runaway chain stops here; real configs nest one or two levels. */
const MAX_DEPTH = 8;

/**
 * Inlines the `{ "$ref": "./fr.json" }` objects of a docs.json, the way Mintlify lets a config
 * split its navigation (one file per language, for instance): each is replaced by the referenced
 * file's content, merged under the object's other keys. `$ref` paths are relative to the file
 * that holds them. A reference that cannot be read stays as it is (navigation skips it).
 */
export function resolveConfigReferences(
  config: unknown,
  readJson: JsonReader,
  configPath = 'docs.json',
): unknown {
  return resolve(config, readJson, posix.dirname(configPath), 0);
}

function resolve(value: unknown, readJson: JsonReader, folder: string, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(item, readJson, folder, depth));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const reference = object.$ref;
  if (typeof reference === 'string' && depth < MAX_DEPTH) {
    const path = posix.normalize(posix.join(folder, reference));
    const referenced = path.startsWith('..') ? undefined : readJson(path);
    if (typeof referenced === 'object' && referenced !== null && !Array.isArray(referenced)) {
      const { $ref: _reference, ...rest } = object;
      const inlined = { ...(referenced as Record<string, unknown>), ...rest };
      return resolve(inlined, readJson, posix.dirname(path), depth + 1);
    }
  }
  const resolved: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(object)) resolved[key] = resolve(child, readJson, folder, depth);
  return resolved;
}
