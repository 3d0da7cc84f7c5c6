import type { DiffLocation } from './diff-names.js';
import type { ImpactEvidence } from './impact-types.js';

/** One line of evidence a person can check: the diff line and the page line, or the words. */
export function describeEvidence(item: ImpactEvidence): string {
  switch (item.kind) {
    case 'name': {
      const change =
        item.change === 'renamed' && item.renamedTo
          ? `renamed to ${item.renamedTo}`
          : item.change === 'default-changed' && item.oldValue !== undefined
            ? `default ${item.oldValue} -> ${item.newValue ?? '?'}`
            : item.change === 'type-changed' && item.oldValue !== undefined
              ? `declared ${item.oldValue} -> ${item.newValue ?? '?'}`
              : item.change;
      return `${item.name} ${change} (${where(item.diffLine)}); page line ${item.pageLine.line}: ${item.pageLine.text.trim()}`;
    }
    case 'sibling':
      return `new ${item.name} beside ${item.siblings.join(', ')} (${where(item.diffLine)}); page line ${item.pageLine.line}: ${item.pageLine.text.trim()}`;
    case 'family':
      return `new ${item.name} of the ${item.family} family (${where(item.diffLine)}); page line ${item.pageLine.line}: ${item.pageLine.text.trim()}`;
    case 'file-name':
      return `changed file ${item.file} has the page's name`;
    case 'search':
      return `the docs search matched ${item.words.join(', ')}`;
  }
}

function where(location: DiffLocation): string {
  return `${location.file}:${location.line}`;
}
