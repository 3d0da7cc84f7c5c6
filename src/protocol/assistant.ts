import { z } from 'zod';

/**
 * The assistant message request, versions 1 and 2. Unknown fields are stripped, not
 * refused: AI SDK transports add their own (`id`, `trigger`, `messageId`).
 */

const TextPartSchema = z.object({
  type: z.literal('text'),
  text: z.string({ error: 'text parts need a text string' }),
});
/** Parts other than text (step markers, sources, tool calls of earlier assistant turns) are kept opaque. */
const OtherPartSchema = z.looseObject({ type: z.string().refine((type) => type !== 'text') });
const PartSchema = z.union([TextPartSchema, OtherPartSchema], {
  error: 'each part needs a type, and text parts a text string',
});

const RoleSchema = z.enum(['system', 'user', 'assistant'], {
  error: 'role must be user, assistant or system',
});

const MessageV2Schema = z.object({
  id: z.string().optional(),
  role: RoleSchema,
  parts: z.array(PartSchema, {
    // `{ role, content }` is what most people type first: say what version 2 wants instead.
    error: (issue) =>
      issue.input === undefined
        ? 'parts is required: version 2 messages carry their text as parts, e.g. [{"type":"text","text":"How do I install it?"}] (a content string alone is the version 1 shape)'
        : 'parts must be an array of message parts',
  }),
});

const MessageV1Schema = z.object({
  id: z.string().optional(),
  role: z.enum(['system', 'user', 'assistant', 'data'], {
    error: 'role must be user, assistant, system or data',
  }),
  content: z.string({ error: 'version 1 messages need a content string' }),
  parts: z.array(PartSchema).optional(),
});

const ContextItemSchema = z.object({
  type: z.enum(['code', 'textSelection'], { error: 'context type must be code or textSelection' }),
  value: z
    .string({ error: 'context value must be a string' })
    .max(20_000, 'context value must be at most 20,000 characters'),
  path: z.string().max(1000).optional(),
  elementId: z.string().max(200).optional(),
});
export type ContextItem = z.infer<typeof ContextItemSchema>;

const FilterSchema = z.object({
  version: z.string().optional(),
  language: z.string().optional(),
  groups: z.array(z.string(), { error: 'filter.groups must be an array of strings' }).optional(),
});

function requestSchema<Message extends z.ZodType<{ role: string }>>(message: Message) {
  return z.object(
    {
      fp: z
        .string({ error: (issue) => (issue.input === undefined ? 'fp is required' : 'fp must be a string') })
        .min(1, 'fp must not be empty')
        .max(200, 'fp must be at most 200 characters'),
      messages: z
        .array(message, {
          error: (issue) =>
            issue.input === undefined ? 'messages is required' : 'messages must be an array',
        })
        .min(1, 'messages must not be empty')
        .max(200, 'messages may hold at most 200 messages')
        .refine((messages) => messages.at(-1)?.role === 'user', 'messages must end with a user message'),
      threadId: z.string().max(100).nullish(),
      retrievalPageSize: z
        .number({ error: 'retrievalPageSize must be a number' })
        .int('retrievalPageSize must be a whole number')
        .min(1, 'retrievalPageSize must be at least 1')
        .max(50, 'retrievalPageSize must be at most 50')
        .default(5),
      filter: FilterSchema.nullish(),
      context: z.array(ContextItemSchema).max(20, 'context may hold at most 20 items').optional(),
      currentPath: z.string().max(200, 'currentPath must be at most 200 characters').optional(),
    },
    { error: 'the body must be a JSON object' },
  );
}

export const AssistantRequestV2Schema = requestSchema(MessageV2Schema);
export const AssistantRequestV1Schema = requestSchema(MessageV1Schema);

/** A conversation turn reduced to what retrieval and answering use. */
export interface ConversationTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** The text of a message: its text parts joined (v2), or `content` (v1). */
function messageText(message: { parts?: unknown[]; content?: string }): string {
  if (typeof message.content === 'string' && message.content !== '') return message.content;
  return (message.parts ?? [])
    .filter((part): part is { type: 'text'; text: string } => TextPartSchema.safeParse(part).success)
    .map((part) => part.text)
    .join('\n');
}

/** User and assistant turns of a request, in order; system and data messages carry no conversation. */
export function conversationOf(
  messages: { role: string; parts?: unknown[]; content?: string }[],
): ConversationTurn[] {
  return messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => ({ role: message.role as 'user' | 'assistant', text: messageText(message) }));
}
