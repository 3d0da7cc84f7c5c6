import { z } from 'zod';
import {
  JobListSchema,
  JobMessageSchema,
  JobSchema,
  JobStatusSchema,
  PromptBodySchema,
  BudgetSchema,
  CreateJobBodySchema,
  UsageSchema,
} from '../protocol/agent-job.js';
import { AssistantRequestV1Schema, AssistantRequestV2Schema } from '../protocol/assistant.js';
import { ErrorBodySchema } from '../protocol/error.js';
import {
  FeedbackBodySchema,
  FeedbackSchema,
  GapSchema,
  GapsIssueSchema,
  GapsReportSchema,
  PageReportSchema,
} from '../protocol/feedback.js';

/** Every schema a reference can point at: each becomes a component, so no `$defs` are left over. */
const schemas = {
  Job: JobSchema,
  JobList: JobListSchema,
  JobStatus: JobStatusSchema,
  JobMessage: JobMessageSchema,
  PromptBody: PromptBodySchema,
  CreateJobBody: CreateJobBodySchema,
  Budget: BudgetSchema,
  Usage: UsageSchema,
  Error: ErrorBodySchema,
  AssistantRequestV2: AssistantRequestV2Schema,
  AssistantRequestV1: AssistantRequestV1Schema,
  FeedbackBody: FeedbackBodySchema,
  Feedback: FeedbackSchema,
  Gap: GapSchema,
  PageReport: PageReportSchema,
  GapsReport: GapsReportSchema,
  GapsIssue: GapsIssueSchema,
};

const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof schemas) => ({ 'application/json': { schema: ref(name) } });
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [String(code), { description: ERROR_TEXT[code], content: json('Error') }]),
  );

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: the message names the field',
  401: 'Missing or unknown API key',
  403: 'Key of the wrong kind or of another project',
  404: 'No such job (or thread, message or gap)',
  409: 'The job is archived',
  413: 'Body larger than the limit (1 MiB unless DOCWRIGHT_MAX_BODY_BYTES says otherwise)',
  429: 'Rate limit exceeded (Retry-After tells when to retry)',
};

const projectId = { name: 'projectId', in: 'path', required: true, schema: { type: 'string' } };
const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const promptBody = { required: true, content: json('PromptBody') };
const since = {
  name: 'since',
  in: 'query',
  description: 'How far back to read: days or hours, like 30d or 12h',
  schema: { type: 'string', default: '30d' },
};

/** The OpenAPI 3.1 document of the agent API, generated from the same zod schemas the server validates with. */
export function openApiDocument(version = '0.1.0') {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  // `io: 'input'`: request schemas strip unknown fields rather than refuse them, so no additionalProperties: false.
  const generated = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'input' });
  const components = Object.fromEntries(
    Object.entries(generated.schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'docwright API', version },
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/v2/agent/{projectId}/job': {
        post: {
          summary: 'Create an agent job',
          parameters: [projectId],
          requestBody: { required: true, content: json('CreateJobBody') },
          responses: {
            '201': { description: 'The new job (active)', content: json('Job') },
            ...errors(400, 401, 403, 404, 413, 429),
          },
        },
      },
      '/v2/agent/{projectId}/job/{id}': {
        get: {
          summary: 'Get an agent job, with its messages',
          parameters: [projectId, jobId],
          responses: { '200': { description: 'The job', content: json('Job') }, ...errors(401, 403, 404) },
        },
      },
      '/v2/agent/{projectId}/job/{id}/message': {
        post: {
          summary: 'Send a follow-up message to an agent job',
          parameters: [projectId, jobId],
          requestBody: promptBody,
          responses: {
            '200': { description: 'The job (active again)', content: json('Job') },
            ...errors(400, 401, 403, 404, 409, 413, 429),
          },
        },
      },
      '/v2/agent/{projectId}/job/{id}/archive': {
        post: {
          summary: 'Archive an agent job',
          parameters: [projectId, jobId],
          responses: {
            '200': { description: 'The archived job', content: json('Job') },
            ...errors(401, 403, 404),
          },
        },
      },
      '/v2/agent/{projectId}/jobs': {
        get: {
          summary: 'List agent jobs, newest first',
          parameters: [
            projectId,
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            },
            { name: 'cursor', in: 'query', schema: { type: 'string' } },
            { name: 'status', in: 'query', schema: ref('JobStatus') },
          ],
          responses: {
            '200': { description: 'A page of jobs', content: json('JobList') },
            ...errors(400, 401, 403),
          },
        },
      },
      '/v2/agent/{projectId}/gaps': {
        get: {
          summary: "The gaps report: readers' questions the docs did not answer, grouped",
          parameters: [projectId, since],
          responses: {
            '200': {
              description: 'The gaps, most readers first, and the off-topic questions apart',
              content: json('GapsReport'),
            },
            ...errors(400, 401, 403),
          },
        },
      },
      '/v2/agent/{projectId}/gaps/{gap}/job': {
        post: {
          summary: 'Create an agent job that fills a gap of the report',
          description: "The job's prompt carries the gap's questions, readers' comments and closest pages.",
          parameters: [
            projectId,
            { name: 'gap', in: 'path', required: true, schema: { type: 'string' } },
            since,
          ],
          responses: {
            '201': { description: 'The new job (active)', content: json('Job') },
            ...errors(400, 401, 403, 404, 429),
          },
        },
      },
      '/v2/agent/{projectId}/gaps/issue': {
        post: {
          summary: 'Refresh the "Docs gaps" issue of a GitHub project',
          description:
            "What the weekly refresh does, now: opens the issue in the project's repository the first time, edits it afterwards. 409 when the server has no GitHub access or the repository's settings do not ask for the issue (`gaps: { issue: true }`).",
          parameters: [projectId],
          responses: {
            '200': {
              description: 'The issue, and whether this refresh opened it',
              content: json('GapsIssue'),
            },
            ...errors(401, 403, 404, 409),
          },
        },
      },
      '/discovery/v2/assistant/{domain}/feedback': {
        post: {
          summary: 'Rate an answer of the documentation assistant',
          description:
            'Authorization: Bearer <assistant key, svc_dsc_…>. Answers CORS preflights. A second rating of the same answer replaces the first.',
          parameters: [{ name: 'domain', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json('FeedbackBody') },
          responses: {
            '200': { description: 'The rating as stored', content: json('Feedback') },
            ...errors(400, 401, 403, 404, 413, 429),
          },
        },
      },
      '/discovery/v2/assistant/{domain}/message': assistantPath(
        'AssistantRequestV2',
        'text/event-stream',
        'AI SDK 5+ UI message stream (SSE); threadId in messageMetadata of start and finish, and in X-Thread-Id',
      ),
      '/discovery/v1/assistant/{domain}/message': assistantPath(
        'AssistantRequestV1',
        'text/plain',
        'AI SDK 4 data stream (deprecated); threadId in the 8: annotation, the d: part and X-Thread-Id',
      ),
      '/healthz': { get: { summary: 'Liveness', security: [], responses: { '200': { description: 'ok' } } } },
    },
  };
}

/** An assistant endpoint: assistant key, JSON request, a stream answer. */
function assistantPath(request: 'AssistantRequestV2' | 'AssistantRequestV1', type: string, stream: string) {
  return {
    post: {
      summary:
        request === 'AssistantRequestV1'
          ? 'Ask the documentation assistant (deprecated v1)'
          : 'Ask the documentation assistant',
      ...(request === 'AssistantRequestV1' ? { deprecated: true } : {}),
      description: 'Authorization: Bearer <assistant key, svc_dsc_…>. Answers CORS preflights.',
      parameters: [{ name: 'domain', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: json(request) },
      responses: {
        '200': { description: stream, content: { [type]: { schema: { type: 'string' } } } },
        ...errors(400, 401, 403, 404, 413, 429),
      },
    },
  };
}
