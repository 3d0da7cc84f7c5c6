/**
 * Embedding vectors of the sections of one docs index, searched in memory beside its full-text
 * index and replaced with it per docs revision. Where they come from (the embedding model, or
 * vectors stored from an earlier build) is the caller's business. Vectors are normalised once, so
 * similarity is a dot product.
 */
export class SectionVectors {
  private readonly ids: number[];
  private readonly matrix: Float32Array;

  constructor(
    /** The embedding model's name, for logs. */
    readonly model: string,
    vectors: ReadonlyMap<number, ArrayLike<number>>,
    readonly dimensions: number,
  ) {
    this.ids = [...vectors.keys()];
    this.matrix = new Float32Array(this.ids.length * dimensions);
    this.ids.forEach((id, row) =>
      normaliseInto(vectors.get(id)!, this.matrix.subarray(row * dimensions, (row + 1) * dimensions)),
    );
  }

  /** Section ids by similarity to `query`, best first, among sections `allowed` lets through. */
  nearest(query: readonly number[], limit: number, allowed: (sectionId: number) => boolean): number[] {
    // A question embedded with other dimensions (the model changed under the same name) is not
    // comparable with these vectors: nothing is near it, and full-text search ranks alone.
    if (query.length !== this.dimensions) return [];
    const vector = normaliseInto(query, new Float32Array(this.dimensions));
    const scored: { id: number; similarity: number }[] = [];
    for (let row = 0; row < this.ids.length; row += 1) {
      const id = this.ids[row]!;
      if (!allowed(id)) continue;
      let similarity = 0;
      const offset = row * this.dimensions;
      for (let column = 0; column < this.dimensions; column += 1)
        similarity += this.matrix[offset + column]! * vector[column]!;
      scored.push({ id, similarity });
    }
    return scored
      .sort((left, right) => right.similarity - left.similarity)
      .slice(0, limit)
      .map((entry) => entry.id);
  }
}

/** Writes `vector` scaled to length 1 into `target` (whose length is the dimensions), in place. */
function normaliseInto(vector: ArrayLike<number>, target: Float32Array): Float32Array {
  // Copied first, then read back from `target` only: one typed-array loop whatever the input is.
  if (vector.length === target.length && vector instanceof Float32Array) target.set(vector);
  else for (let index = 0; index < target.length; index += 1) target[index] = vector[index] ?? 0;
  let norm = 0;
  for (let index = 0; index < target.length; index += 1) norm += target[index]! * target[index]!;
  norm = Math.sqrt(norm) || 1;
  for (let index = 0; index < target.length; index += 1) target[index]! /= norm;
  return target;
}
