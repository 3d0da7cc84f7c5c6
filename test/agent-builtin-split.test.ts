import { describe, expect, it } from 'vitest';
import { parseInstruction } from '../src/agent/builtin/index.js';
import { splitInstructions } from '../src/agent/builtin/split-instructions.js';

const split = (request: string) => splitInstructions(request, parseInstruction);

describe('splitting a request into instructions', () => {
  it.each([
    ['replace "a" with "b"; replace "c" with "d"', ['replace "a" with "b"', 'replace "c" with "d"']],
    ['replace "a" with "b"; then replace "c" with "d"', ['replace "a" with "b"', 'replace "c" with "d"']],
    ['replace "a" with "b". Then replace "c" with "d".', ['replace "a" with "b"', 'replace "c" with "d".']],
    ['replace "a" with "b", then remove the page old', ['replace "a" with "b"', 'remove the page old']],
    ['replace "a" with "b" and then remove the page old', ['replace "a" with "b"', 'remove the page old']],
    ['1. replace "a" with "b"\n2. remove the page old', ['replace "a" with "b"', 'remove the page old']],
    ['- replace "a" with "b"\n\n- then remove the page old', ['replace "a" with "b"', 'remove the page old']],
    // Separators inside quotes are text.
    ['replace "a; then b" with "c. Then d"', ['replace "a; then b" with "c. Then d"']],
    ['replace "x" with "one\ntwo"', ['replace "x" with "one\ntwo"']],
  ])('%j', (request, expected) => {
    expect(split(request)).toEqual(expected);
  });

  it('keeps the lines after "add a page" as its body, code included, up to the next instruction', () => {
    const request = [
      'add a page guides/webhooks titled "Webhooks"',
      'Webhooks tell you about events.',
      '```sh',
      'replace "this" with "that" stays in the code block',
      '```',
      'replace "Acme" with "Acme One"',
    ].join('\n');
    expect(split(request)).toEqual([
      [
        'add a page guides/webhooks titled "Webhooks"',
        'Webhooks tell you about events.',
        '```sh',
        'replace "this" with "that" stays in the code block',
        '```',
      ].join('\n'),
      'replace "Acme" with "Acme One"',
    ]);
  });

  it('never swallows text after a closing quote into the replacement', () => {
    expect(parseInstruction('replace "Acme Cloud" with "Acme"; then replace "x" with "y"')).toBeUndefined();
    expect(parseInstruction('replace "Acme Cloud" with "Acme"')).toEqual({
      kind: 'replace-text',
      from: 'Acme Cloud',
      to: 'Acme',
    });
  });
});
