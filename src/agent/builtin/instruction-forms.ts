/**
 * The instruction forms the built-in agent understands, with an example each: the reply to an
 * instruction it cannot read lists them, so the requester can rephrase.
 */
export const INSTRUCTION_FORMS: ReadonlyArray<{ form: string; example: string }> = [
  { form: 'Replace text in every page', example: 'replace "Acme Cloud" with "Acme Platform"' },
  { form: 'Rename text in every page', example: 'rename "Acme Cloud" to "Acme Platform"' },
  {
    form: 'Add a page (body after `with`, or on the next lines)',
    example:
      'add a page guides/webhooks titled "Webhooks" described as "Get notified of events" with "Body text"',
  },
  {
    form: 'Append a section to a page',
    example: 'append a section "Rate limits" to quickstart with "Each key may send 600 requests a minute."',
  },
  {
    form: 'Remove a page (its links point where you say)',
    example: 'remove the page guides/old and point its links to guides/new',
  },
  {
    form: 'Move or rename a page (links are repointed)',
    example: 'move page guides/setup to guides/getting-started',
  },
  { form: 'Repoint links', example: 'repoint links from /old-path to /new-path' },
  { form: 'Fix links to a page that is gone', example: 'fix links to /old-path' },
];

/** The forms with their examples, and where free-form requests go instead. */
export const FORMS_LIST = [
  `The built-in agent makes mechanical edits and understands these forms (several in one request, one per line or joined by \`; then\`):\n\n${INSTRUCTION_FORMS.map(({ form, example }) => `- ${form}: \`${example}\``).join('\n')}`,
  "Free-form requests need a model: set `DOCWRIGHT_MODEL=openai:<model>`, `DOCWRIGHT_MODEL=anthropic:<model>` or another provider's model (bedrock, google, vertex, azure, ollama, openai-compatible).",
].join('\n\n');

/** The reply to an instruction that matches none of the forms. */
export function notUnderstoodReply(instruction: string): string {
  const quoted = instruction.trim().replace(/\s+/g, ' ');
  const shown = quoted.length > 120 ? `${quoted.slice(0, 117)}...` : quoted;
  return `I did not understand "${shown}", so I changed nothing.\n\n${FORMS_LIST}`;
}
