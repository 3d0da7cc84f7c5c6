import type { Context } from 'hono';
import type { z } from 'zod';
import { DocwrightError } from '../core/errors.js';
import { formatZodError } from '../protocol/format-zod-error.js';

/** Parses the JSON body against `schema`; 400 with the field named, or for JSON that does not parse. */
export async function readJson<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message}` : '';
    throw new DocwrightError('invalid_json', `Request body is not valid JSON${detail}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DocwrightError('invalid_request', formatZodError(parsed.error));
  return parsed.data;
}

/** Parses the query string against `schema`; 400 naming the parameter. */
export function readQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.infer<Schema> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new DocwrightError('invalid_request', formatZodError(parsed.error, 'query'));
  return parsed.data;
}
