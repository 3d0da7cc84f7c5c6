import {
  docsCheckOutput as checkOutput,
  type DocsCheckOutput,
  type DocsPlace,
} from '../github/docs-check-output.js';
import { describeEvidence, type ImpactPage } from '../impact/index.js';

// The wording lives in src/github, where the Action writes the same check run on a pull request.
export {
  DOCS_CHECK_NAME,
  noCodeChanged,
  uncheckedOutput,
  type DocsCheckOutput,
} from '../github/docs-check-output.js';

/** The App's docs check run of an analysed pull request, each piece of evidence described as `docwright impact` does. */
export function docsCheckOutput(
  listed: readonly ImpactPage[],
  stale: readonly ImpactPage[],
  place: DocsPlace,
  command: string,
): DocsCheckOutput {
  return checkOutput(listed, stale, place, command, describeEvidence);
}
