import type { z } from 'zod';

/** One sentence naming the first offending field(s), e.g. `prompt: prompt must not be empty`. */
export function formatZodError(error: z.ZodError, where = 'body'): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
    if (issue.code === 'unrecognized_keys') return `${field}: unknown field(s) ${issue.keys.join(', ')}`;
    // Our schemas' messages already name the field ("prompt is required"); zod's defaults do not.
    return issue.message.startsWith(field) || issue.path.length === 0
      ? issue.message
      : `${field}: ${issue.message}`;
  });
  return `Invalid request ${where}: ${parts.join('; ')}`;
}
