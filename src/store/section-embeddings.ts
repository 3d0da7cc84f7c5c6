import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Rows per insert (6 parameters each) and hashes per delete: far below either database's limit. */
const INSERT_CHUNK = 200;
const DELETE_CHUNK = 500;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The embedding vectors of a project's section texts, kept by embedding model and by the SHA-256 of
 * the text the model was sent, so an index rebuild, a restart or another replica on the same
 * database sends the model only text it has not embedded yet. Vectors are float32, little-endian,
 * in a BLOB (SQLite) or bytea (PostgreSQL): a quarter of their size as JSON, and read without parsing.
 */
export class SectionEmbeddingStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every vector stored for the project under `model`, by content hash. */
  async load(projectId: string, model: string): Promise<Map<string, Float32Array>> {
    const rows = await this.db
      .selectFrom('section_embeddings')
      .select(['content_hash', 'dimensions', 'vector'])
      .where('project_id', '=', projectId)
      .where('model', '=', model)
      .execute();
    const vectors = new Map<string, Float32Array>();
    for (const row of rows) {
      // A row of the wrong length is left out, so the text is embedded again and the row replaced.
      if (row.vector.byteLength === row.dimensions * 4)
        vectors.set(row.content_hash, fromBytes(row.vector, row.dimensions));
    }
    return vectors;
  }

  /** Stores vectors by content hash; a hash already stored gets the new vector. */
  async save(
    projectId: string,
    model: string,
    vectors: ReadonlyMap<string, Float32Array>,
    now = new Date(),
  ): Promise<void> {
    const rows = [...vectors].map(([hash, vector]) => ({
      project_id: projectId,
      model,
      content_hash: hash,
      dimensions: vector.length,
      vector: toBytes(vector),
      created_at: now.toISOString(),
    }));
    // One transaction per chunk, not one for all: a SQLite writer holds the whole database, and
    // other requests should not wait for ten thousand rows.
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await this.db
        .insertInto('section_embeddings')
        .values(rows.slice(start, start + INSERT_CHUNK))
        .onConflict((conflict) =>
          conflict.columns(['project_id', 'model', 'content_hash']).doUpdateSet((update) => ({
            dimensions: update.ref('excluded.dimensions'),
            vector: update.ref('excluded.vector'),
            created_at: update.ref('excluded.created_at'),
          })),
        )
        .execute();
    }
  }

  /** Removes the project's vectors under `model` whose hash is not in `keep`; returns how many. */
  async removeExcept(projectId: string, model: string, keep: ReadonlySet<string>): Promise<number> {
    const stored = await this.db
      .selectFrom('section_embeddings')
      .select('content_hash')
      .where('project_id', '=', projectId)
      .where('model', '=', model)
      .execute();
    const stale = stored.map((row) => row.content_hash).filter((hash) => !keep.has(hash));
    for (let start = 0; start < stale.length; start += DELETE_CHUNK) {
      await this.db
        .deleteFrom('section_embeddings')
        .where('project_id', '=', projectId)
        .where('model', '=', model)
        .where('content_hash', 'in', stale.slice(start, start + DELETE_CHUNK))
        .execute();
    }
    return stale.length;
  }
}

function toBytes(vector: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes;
}

/** A copy, not a view: the driver's buffer need not be aligned to 4 bytes. */
function fromBytes(bytes: Uint8Array, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  if (LITTLE_ENDIAN) new Uint8Array(vector.buffer).set(bytes);
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let index = 0; index < dimensions; index += 1) vector[index] = view.getFloat32(index * 4, true);
  }
  return vector;
}
