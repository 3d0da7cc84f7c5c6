/**
 * Families of near-duplicate pages: pages of one folder written from one template (a guide per
 * container registry, per telephony provider, per speech vendor) share most of their wording.
 * Search shows one page of a family among its top results, so that the page that answers is not
 * pushed out by its siblings; the one shown is the best-ranked, usually the one named in the question.
 */

/** Share of shared three-word phrases above which two sibling pages count as one family. */
const NEAR_DUPLICATE_SIMILARITY = 0.5;
/** Words of a page compared: templated pages show their likeness early; long pages cost no more. */
const COMPARED_WORDS = 600;

export interface FamilyPage {
  id: number;
  urlPath: string;
  text: string;
}

/** Page id -> family id (the smallest page id of its family); pages without a sibling alike are absent. */
export function nearDuplicateFamilies(pages: readonly FamilyPage[]): Map<number, number> {
  const byFolder = new Map<string, FamilyPage[]>();
  for (const page of pages) {
    const folder = page.urlPath.slice(0, page.urlPath.lastIndexOf('/'));
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), page]);
  }
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while ((parent.get(root) ?? root) !== root) root = parent.get(root)!;
    return root;
  };
  for (const folder of byFolder.values()) {
    if (folder.length < 2) continue;
    const siblings = folder.map((page) => ({ id: page.id, shingles: shingles(page.text) }));
    for (let left = 0; left < siblings.length; left += 1)
      for (let right = left + 1; right < siblings.length; right += 1) {
        const a = siblings[left]!;
        const b = siblings[right]!;
        if (jaccard(a.shingles, b.shingles) < NEAR_DUPLICATE_SIMILARITY) continue;
        const [rootA, rootB] = [find(a.id), find(b.id)];
        parent.set(rootA, rootA);
        parent.set(rootB, rootB);
        if (rootA !== rootB) parent.set(Math.max(rootA, rootB), Math.min(rootA, rootB));
      }
  }
  const families = new Map<number, number>();
  for (const id of parent.keys()) families.set(id, find(id));
  return families;
}

/** Distinct hashes of the three-word phrases of the text's opening, sorted (lower-cased words). */
function shingles(text: string): Uint32Array {
  const words = (
    text
      .slice(0, COMPARED_WORDS * 12)
      .toLowerCase()
      .match(/[a-z0-9\u00c0-\uffff]+/g) ?? []
  )
    .slice(0, COMPARED_WORDS)
    .map(hash);
  const result = new Uint32Array(Math.max(0, words.length - 2));
  for (let index = 0; index + 2 < words.length; index += 1)
    result[index] =
      (Math.imul(words[index]!, 31) ^ Math.imul(words[index + 1]!, 17) ^ words[index + 2]!) >>> 0;
  result.sort();
  let distinct = 0;
  for (let index = 0; index < result.length; index += 1)
    if (index === 0 || result[index] !== result[index - 1]) result[distinct++] = result[index]!;
  return result.subarray(0, distinct);
}

/** Jaccard similarity of two sorted sets, by one merge; sizes too far apart cannot reach the bar. */
function jaccard(left: Uint32Array, right: Uint32Array): number {
  const [small, large] =
    left.length < right.length ? [left.length, right.length] : [right.length, left.length];
  if (small === 0 || small < large * NEAR_DUPLICATE_SIMILARITY) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < left.length && j < right.length;) {
    if (left[i] === right[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (left[i]! < right[j]!) i += 1;
    else j += 1;
  }
  return shared / (left.length + right.length - shared);
}

/** FNV-1a: a fast 32-bit string hash; collisions only blur the similarity slightly. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}
