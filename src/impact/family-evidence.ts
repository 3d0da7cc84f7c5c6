import type { DiffName } from './diff-names.js';
import { add, type PageEvidence } from './name-evidence.js';
import type { PageLine } from './page-vocabulary.js';
import type { PageVocabulary } from './page-vocabulary.js';

/**
 * Most a family placement adds. Codes and channel names are catalogued: a project that lists its
 * `ERR_` codes on one page lists the next one there too.
 */
const FAMILY_WEIGHT = 0.85;
/** Distinct documented members a family needs to be a catalogue rather than a coincidence. */
const MIN_MEMBERS = 3;
/** Members quoted in the evidence. */
const MEMBERS_SHOWN = 5;

interface Family {
  /** How the family reads (`ERR_SOCKET_*`, `app:request:*`). */
  label: string;
  /** Documented members, with their lines. */
  members: Map<string, PageLine[]>;
  /** How near a member is to the new name (1 for unordered families). */
  nearness: (member: string) => number;
}

/**
 * Numbers apart at which a numbered member counts half: a new `DEP0025` belongs beside `DEP0024`,
 * where the current codes are listed, more than beside `DEP0003` in an old migration guide.
 */
const NUMBER_SCALE = 3;

/**
 * Evidence for the pages that catalogue the family of a new code or compound name: upper-case
 * codes sharing their leading words (`ERR_SOCKET_*`) or their letters before a number (`DEP0025`),
 * and names with `:`, `.` or `/` sharing all but their last part (`app:request:*`, `/users/*`).
 * A page adds FAMILY_WEIGHT x its share of the family's mentions (numbered members weighed by
 * how near their number is) x how many members it lists (saturating).
 */
export function familyEvidence(newNames: readonly DiffName[], vocabulary: PageVocabulary): PageEvidence {
  const evidence: PageEvidence = new Map();
  for (const name of newNames) {
    const family = findFamily(name.name, vocabulary);
    if (!family) continue;
    const byPage = new Map<number, { members: string[]; mass: number; line: PageLine }>();
    let total = 0;
    for (const [member, lines] of family.members) {
      const nearness = family.nearness(member);
      for (const page of new Set(lines.map((at) => at.page))) {
        const entry = byPage.get(page) ?? {
          members: [],
          mass: 0,
          line: lines.find((at) => at.page === page)!,
        };
        entry.members.push(member);
        entry.mass += nearness;
        total += nearness;
        byPage.set(page, entry);
      }
    }
    for (const [page, { members, mass, line }] of byPage) {
      const share = mass / total;
      add(evidence, page, {
        kind: 'family',
        name: name.name,
        family: family.label,
        members: [...members].sort((a, b) => family.nearness(b) - family.nearness(a)).slice(0, MEMBERS_SHOWN),
        diffLine: name.at,
        pageLine: { line: line.line, text: vocabulary.text(line) },
        weight: FAMILY_WEIGHT * share * (1 - Math.exp(-members.length / 2)),
      });
    }
  }
  return evidence;
}

/** The narrowest family of a name with at least MIN_MEMBERS documented members, if any. */
function findFamily(name: string, vocabulary: PageVocabulary): Family | undefined {
  for (const prefix of familyPrefixes(name)) {
    const members = new Map<string, PageLine[]>();
    const source = prefix.compound ? vocabulary.compounds() : vocabulary.constants();
    for (const [member, lines] of source)
      if (prefix.test(member) && member !== name) members.set(member, lines);
    if (members.size >= MIN_MEMBERS) return { label: prefix.label, members, nearness: prefix.nearness };
  }
  return undefined;
}

interface FamilyPrefix {
  label: string;
  compound: boolean;
  test: (member: string) => boolean;
  nearness: (member: string) => number;
}

const unordered = () => 1;

/** A name's possible families, narrowest first. */
function familyPrefixes(name: string): FamilyPrefix[] {
  const numbered = /^([A-Z]+)\d+$/.exec(name);
  if (numbered) {
    const stem = numbered[1]!;
    const number = Number(name.slice(stem.length));
    const pattern = new RegExp(`^${stem}\\d+$`);
    const nearness = (member: string) =>
      NUMBER_SCALE / (NUMBER_SCALE + Math.abs(Number(member.slice(stem.length)) - number));
    return [{ label: `${stem}…`, compound: false, test: (member) => pattern.test(member), nearness }];
  }
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name)) {
    const parts = name.split('_');
    const prefixes: FamilyPrefix[] = [];
    for (let length = parts.length - 1; length >= 1; length -= 1) {
      const prefix = `${parts.slice(0, length).join('_')}_`;
      prefixes.push({
        label: `${prefix}*`,
        compound: false,
        test: (member) => member.startsWith(prefix),
        nearness: unordered,
      });
    }
    return prefixes;
  }
  const cut = Math.max(name.lastIndexOf(':'), name.lastIndexOf('.'), name.lastIndexOf('/'));
  if (cut > 0) {
    const prefix = name.slice(0, cut + 1);
    return [
      {
        label: `${prefix}*`,
        compound: true,
        test: (member) => member.startsWith(prefix),
        nearness: unordered,
      },
    ];
  }
  return [];
}
