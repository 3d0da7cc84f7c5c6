import { z } from 'zod';
import { ERROR_CODES } from '../core/errors.js';

/** Every error response: `{ error, code, retryable }`. */
export const ErrorBodySchema = z
  .object({
    error: z.string().describe('What went wrong, in words; names the offending field on 400.'),
    code: z.enum(ERROR_CODES).optional().describe('A stable machine-readable code.'),
    retryable: z
      .boolean()
      .optional()
      .describe(
        'Whether the same request may succeed later (a rate limit, an outage), as opposed to a request that must change first.',
      ),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
