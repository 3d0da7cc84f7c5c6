import { queryTerms, type SearchHit } from '../../docs/index.js';
import { stem, textUnits, type TextUnit } from './sentences.js';
import { sourcesOf, wordDeltas, type Answer, type Answerer, type AnswerInput } from './types.js';

/** Share of the question's words the best passage must contain to count as an answer at all. */
const MIN_COVERAGE = 0.34;
/** Characters of prose in one answer (code blocks come on top). */
const PROSE_BUDGET = 1100;
const MAX_PASSAGES = 3;
const PROCEDURAL = /\b(how|install|configure|set ?up|setup|command|example|run|create|add|enable|use)\b/i;

interface ScoredUnit extends TextUnit {
  index: number;
  stems: Set<string>;
  score: number;
  matched: number;
}

interface Excerpt {
  passage: SearchHit;
  units: ScoredUnit[];
}

/**
 * The offline answer (DESIGN, "Answers"): the most relevant sentences, list items and, for "how"
 * questions, a short code block of the top passages, in their own order, each group cited. When the
 * passages do not contain the question's words, it says the docs do not cover it instead of guessing.
 */
export class ExtractiveAnswerer implements Answerer {
  readonly name = 'extractive';

  answer(input: AnswerInput): Answer {
    const question = input.conversation.at(-1)?.text ?? input.query;
    const stems = new Set(queryTerms(input.query).map(stem));
    const excerpts = selectExcerpts(input.passages, stems, PROCEDURAL.test(question));
    if (excerpts.length === 0) {
      return { sources: [], text: toAsync(wordDeltas(notCovered(input.passages[0]))) };
    }
    const sources = sourcesOf(excerpts.map((excerpt) => excerpt.passage));
    return { sources, text: toAsync(wordDeltas(compose(excerpts, sources))) };
  }
}

function selectExcerpts(passages: SearchHit[], stems: Set<string>, procedural: boolean): Excerpt[] {
  if (stems.size === 0) return [];
  const excerpts: Excerpt[] = [];
  let budget = PROSE_BUDGET;
  for (const [rank, passage] of passages.slice(0, MAX_PASSAGES + 2).entries()) {
    if (excerpts.length >= MAX_PASSAGES || budget <= 0) break;
    const headingStems = new Set(queryTerms(`${passage.pageTitle} ${passage.headings.join(' ')}`).map(stem));
    const units = textUnits(passage.body).map((unit, index) => score(unit, index, stems, headingStems));
    const covered = new Set(
      [...stems].filter((word) => headingStems.has(word) || units.some((unit) => unit.stems.has(word))),
    );
    if (!answers(covered.size, stems.size, rank)) continue;
    const chosen = chooseUnits(units, rank === 0 ? 3 : 2, procedural, budget);
    if (chosen.length === 0) continue;
    budget -= chosen.filter((unit) => unit.kind !== 'code').reduce((sum, unit) => sum + unit.text.length, 0);
    excerpts.push({ passage, units: chosen });
  }
  return excerpts;
}

/**
 * Whether a passage holds enough of the question: a share of its words and, for questions of two
 * words or more, at least two of them ("capital of France" must not be answered by a section that
 * mentions capital letters).
 */
function answers(covered: number, total: number, rank: number): boolean {
  const needed = Math.max(
    Math.ceil(Math.min(total, 6) * (rank === 0 ? MIN_COVERAGE : 0.5)),
    Math.min(total, 2),
  );
  return covered >= needed;
}

function score(unit: TextUnit, index: number, stems: Set<string>, headingStems: Set<string>): ScoredUnit {
  const words = new Set(queryTerms(unit.text, 200).map(stem));
  const matched = [...stems].filter((word) => words.has(word)).length;
  // Early sentences of a section whose heading matches usually define what the section is about.
  const headingBonus = [...stems].some((word) => headingStems.has(word)) && index < 2 ? 0.5 : 0;
  return {
    ...unit,
    index,
    stems: words,
    matched,
    score: matched + headingBonus - (unit.kind === 'code' ? 0.5 : 0),
  };
}

function chooseUnits(units: ScoredUnit[], count: number, procedural: boolean, budget: number): ScoredUnit[] {
  const prose = units.filter((unit) => unit.kind !== 'code' && unit.score > 0 && unit.text.length <= budget);
  const best = [...prose].sort((a, b) => b.score - a.score || a.index - b.index).slice(0, count);
  const chosen = new Map(best.map((unit) => [unit.index, unit]));
  // A list item rarely stands alone: bring its siblings (the rest of the list, up to 6).
  for (const unit of best.filter((item) => item.kind === 'item')) {
    for (const sibling of units
      .filter((other) => other.kind === 'item' && other.block === unit.block)
      .slice(0, 6)) {
      chosen.set(sibling.index, sibling);
    }
  }
  if (procedural && best.length > 0) {
    const code = units.find((unit) => unit.kind === 'code' && unit.text.split('\n').length <= 16);
    if (code) chosen.set(code.index, code);
  }
  return [...chosen.values()].sort((a, b) => a.index - b.index);
}

function compose(excerpts: Excerpt[], sources: { url: string }[]): string {
  const parts = excerpts.map((excerpt, position) => {
    const number = sources.findIndex((source) => source.url === excerpt.passage.url) + 1;
    const opensWithProse = excerpt.units[0]?.kind === 'sentence';
    const label = `**${excerpt.passage.heading || excerpt.passage.pageTitle}:**`;
    const lead = position === 0 && opensWithProse ? '' : opensWithProse ? `${label} ` : `${label}\n`;
    return `${lead}${render(excerpt.units)} [${number}]`;
  });
  return parts.join('\n\n');
}

function render(units: ScoredUnit[]): string {
  const lines: string[] = [];
  let sentences: string[] = [];
  const flush = () => {
    if (sentences.length > 0) lines.push(sentences.join(' '));
    sentences = [];
  };
  for (const unit of units) {
    if (unit.kind === 'sentence') sentences.push(unit.text);
    else {
      flush();
      lines.push(unit.kind === 'item' ? `- ${unit.text}` : `\n${unit.text}\n`);
    }
  }
  flush();
  return lines.join('\n').trim();
}

function notCovered(closest: SearchHit | undefined): string {
  const text = "I couldn't find an answer to that in the docs, so I won't guess.";
  return closest ? `${text} The closest page is [${closest.pageTitle}](${closest.url}).` : text;
}

async function* toAsync(deltas: Iterable<string>): AsyncGenerator<string> {
  for (const delta of deltas) {
    yield delta;
    await Promise.resolve();
  }
}
