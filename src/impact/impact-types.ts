import type { DiffLocation, NameChange } from './diff-names.js';

/** A line of a docs page: 1-based number and its text. */
interface PageQuote {
  line: number;
  text: string;
}

/**
 * Why a page is thought affected. Every item carries `weight`, the share of certainty it adds
 * (0-1): items combine as independent signs, so two of 0.5 make 0.75.
 */
export type ImpactEvidence =
  /** A name the diff removed, renamed, re-defaulted or changed is written on the page. */
  | {
      kind: 'name';
      name: string;
      change: NameChange;
      renamedTo?: string;
      oldValue?: string;
      newValue?: string;
      diffLine: DiffLocation;
      pageLine: PageQuote;
      weight: number;
    }
  /** A new name whose neighbours in the code are documented together on the page. */
  | {
      kind: 'sibling';
      name: string;
      siblings: string[];
      diffLine: DiffLocation;
      pageLine: PageQuote;
      weight: number;
    }
  /** A new name of a family the page lists (`ERR_X` beside the page's other `ERR_` codes). */
  | {
      kind: 'family';
      name: string;
      family: string;
      members: string[];
      diffLine: DiffLocation;
      pageLine: PageQuote;
      weight: number;
    }
  /** A changed code file has the page's name (`lib/session.js` and `Session.md`). */
  | { kind: 'file-name'; file: string; weight: number }
  /** The docs search found the page for the diff's words. */
  | { kind: 'search'; words: string[]; weight: number };

/** One page of the result. */
export interface ImpactPage {
  /** Path relative to the docs root, with its extension. */
  path: string;
  /** Certainty that the change makes the page stale, 0-1: evidence weights combined. */
  score: number;
  /**
   * The page is listed as needing an update: its score passes SURE_SCORE, or the change is judged
   * to need docs and the page is among its best.
   */
  affected: boolean;
  /** Strongest first. */
  evidence: ImpactEvidence[];
}

/** The analysis of one diff against one docs tree. */
export interface ImpactResult {
  /** Every page with any evidence, most affected first. */
  pages: ImpactPage[];
  /** Whether the change needs any docs change, apart from which pages: see `change-judge.ts`. */
  judgement: { needsDocs: boolean; chance: number };
}
