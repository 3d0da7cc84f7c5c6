import { z } from 'zod';

/** Every error response: `{ error, code }`. */
export const ErrorBodySchema = z
  .object({
    error: z.string().describe('What went wrong, in words; names the offending field on 400.'),
    code: z.string().optional().describe('A stable machine-readable code.'),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
