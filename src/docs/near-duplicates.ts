/**
 * Families of near-duplicate pages: pages of one folder written from one template (a guide per
 * container registry, per telephony provider, per speech vendor) share most of their wording.
 * Search shows one page of a family among its top results, so that the page that answers is not
 * pushed out by its siblings; the one shown is the best-ranked, usually the one named in the question.
 */

/** Share of shared three-word phrases above which two sibling pages count as one family. */
export const NEAR_DUPLICATE_SIMILARITY = 0.5;

export interface FamilyPage {
  id: number;
  urlPath: string;
  text: string;
}

/** Page id -> family id (the smallest page id of its family); pages without siblings alike are absent. */
export function nearDuplicateFamilies(pages: readonly FamilyPage[]): Map<number, number> {
  const byFolder = new Map<string, { id: number; shingles: Set<number> }[]>();
  for (const page of pages) {
    const folder = page.urlPath.slice(0, page.urlPath.lastIndexOf('/'));
    const list = byFolder.get(folder) ?? [];
    list.push({ id: page.id, shingles: shingles(page.text) });
    byFolder.set(folder, list);
  }
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while ((parent.get(root) ?? root) !== root) root = parent.get(root)!;
    return root;
  };
  for (const siblings of byFolder.values()) {
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

/** Hashes of the text's three-word phrases (lower-cased words). */
function shingles(text: string): Set<number> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const result = new Set<number>();
  for (let index = 0; index + 2 < words.length; index += 1)
    result.add(hash(`${words[index]} ${words[index + 1]} ${words[index + 2]}`));
  return result;
}

function jaccard(left: Set<number>, right: Set<number>): number {
  if (left.size === 0 || right.size === 0) return 0;
  const [small, large] = left.size < right.size ? [left, right] : [right, left];
  let shared = 0;
  for (const item of small) if (large.has(item)) shared += 1;
  return shared / (left.size + right.size - shared);
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
