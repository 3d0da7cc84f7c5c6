import type { LanguageModel } from 'ai';
import type { ModelProvider } from '../core/model-spec.js';
import type { ModelProviders } from './provider-settings.js';

/** The AI SDK's language model interface that every provider package of this `ai` major returns. */
type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** Where Ollama serves its OpenAI-compatible API unless DOCWRIGHT_MODEL_BASE_URL says otherwise. */
const OLLAMA_BASE_URL = 'http://localhost:11434/v1';

interface ProviderEntry {
  /** What is missing for the provider to work, in the names of the variables that supply it. */
  missing(providers: ModelProviders): string[];
  /** The provider's package, imported only now: a deployment loads the packages it uses, no others. */
  load(
    modelId: string,
    providers: ModelProviders,
    fetch: typeof globalThis.fetch | undefined,
  ): Promise<ProviderModel>;
}

const PROVIDERS: Record<ModelProvider, ProviderEntry> = {
  openai: {
    missing: (p) =>
      p.openai.apiKey || p.openai.baseUrl || p.baseUrl
        ? []
        : ['OPENAI_API_KEY (or OPENAI_BASE_URL or DOCWRIGHT_MODEL_BASE_URL for a compatible server)'],
    async load(modelId, p, fetch) {
      const { createOpenAI } = await import('@ai-sdk/openai');
      // Chat Completions, which compatible servers (vLLM, LM Studio) speak too. They often need no
      // key; the SDK insists on one, so they get a placeholder.
      return createOpenAI({
        apiKey: p.openai.apiKey ?? 'not-needed',
        baseURL: p.baseUrl ?? p.openai.baseUrl,
        fetch,
      }).chat(modelId);
    },
  },
  anthropic: {
    missing: (p) => (p.anthropic.apiKey ? [] : ['ANTHROPIC_API_KEY']),
    async load(modelId, p, fetch) {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: p.anthropic.apiKey, baseURL: p.baseUrl, fetch })(modelId);
    },
  },
  bedrock: {
    missing: ({ bedrock = {} }) => [
      ...(bedrock.region ? [] : ['AWS_REGION']),
      // With the chain allowed, whether it finds credentials is asked at start (checkModelCredentials).
      ...(bedrock.apiKey || (bedrock.accessKeyId && bedrock.secretAccessKey) || bedrock.credentialChain
        ? []
        : [
            'AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY (as aws-actions/configure-aws-credentials sets them), or AWS_BEARER_TOKEN_BEDROCK',
          ]),
    ],
    async load(modelId, p, fetch) {
      const { createAmazonBedrock } = await import('@ai-sdk/amazon-bedrock');
      const bedrock = p.bedrock ?? {};
      // A Bedrock API key is sent as a bearer token; without one, requests are signed (SigV4) with
      // the environment's keys or, where allowed, what the AWS credential chain finds.
      let credentials: Parameters<typeof createAmazonBedrock>[0] = {
        accessKeyId: bedrock.accessKeyId,
        secretAccessKey: bedrock.secretAccessKey,
        sessionToken: bedrock.sessionToken,
      };
      if (bedrock.apiKey) credentials = { apiKey: bedrock.apiKey };
      else if (bedrock.credentialChain && !(bedrock.accessKeyId && bedrock.secretAccessKey)) {
        const { awsCredentialChain } = await import('./aws-credential-chain.js');
        credentials = { credentialProvider: await awsCredentialChain(bedrock) };
      }
      return createAmazonBedrock({ region: bedrock.region, ...credentials, baseURL: p.baseUrl, fetch })(
        modelId,
      );
    },
  },
  google: {
    missing: (p) => (p.google?.apiKey ? [] : ['GOOGLE_GENERATIVE_AI_API_KEY']),
    async load(modelId, p, fetch) {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: p.google?.apiKey, baseURL: p.baseUrl, fetch })(modelId);
    },
  },
  vertex: {
    // Express mode takes an API key; otherwise the project and location, with the application
    // default credentials that google-auth-library finds (GOOGLE_APPLICATION_CREDENTIALS, gcloud,
    // the metadata server), which cannot be checked without asking Google.
    missing: ({ vertex = {} }) => {
      if (vertex.apiKey) return [];
      const names = [
        ...(vertex.project ? [] : ['GOOGLE_VERTEX_PROJECT']),
        ...(vertex.location ? [] : ['GOOGLE_VERTEX_LOCATION']),
      ];
      return names.length
        ? [`${names.join(' and ')} (with application default credentials), or GOOGLE_VERTEX_API_KEY`]
        : [];
    },
    async load(modelId, p, fetch) {
      const { createVertex } = await import('@ai-sdk/google-vertex');
      const vertex = p.vertex ?? {};
      return createVertex({
        ...(vertex.apiKey
          ? { apiKey: vertex.apiKey }
          : { project: vertex.project, location: vertex.location }),
        baseURL: p.baseUrl,
        fetch,
      })(modelId);
    },
  },
  azure: {
    missing: (p) => [
      ...(p.azure?.resourceName || p.baseUrl ? [] : ['AZURE_RESOURCE_NAME (or DOCWRIGHT_MODEL_BASE_URL)']),
      ...(p.azure?.apiKey ? [] : ['AZURE_API_KEY']),
    ],
    async load(deployment, p, fetch) {
      const { createAzure } = await import('@ai-sdk/azure');
      // Chat Completions of the deployment, which every Azure deployment serves (the Responses API
      // only some models do).
      return createAzure({
        resourceName: p.azure?.resourceName,
        apiKey: p.azure?.apiKey,
        baseURL: p.baseUrl,
        fetch,
      }).chat(deployment);
    },
  },
  ollama: {
    missing: () => [],
    async load(modelId, p, fetch) {
      return compatibleModel('ollama', p.baseUrl ?? OLLAMA_BASE_URL, modelId, p, fetch);
    },
  },
  'openai-compatible': {
    missing: (p) =>
      p.baseUrl ? [] : ["DOCWRIGHT_MODEL_BASE_URL (the server's address, e.g. http://localhost:8000/v1)"],
    async load(modelId, p, fetch) {
      return compatibleModel('openai-compatible', p.baseUrl ?? '', modelId, p, fetch);
    },
  },
};

async function compatibleModel(
  name: string,
  baseURL: string,
  modelId: string,
  p: ModelProviders,
  fetch: typeof globalThis.fetch | undefined,
): Promise<ProviderModel> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  // Usage in streams too: the agent's token budget counts it.
  return createOpenAICompatible({ name, baseURL, apiKey: p.compatible?.apiKey, includeUsage: true, fetch })(
    modelId,
  );
}

/**
 * The sentence that refuses a provider whose settings are missing, naming the variables, or null.
 * Raised before any work: at start, at config validation, at a job's start.
 */
export function missingProviderSettings(
  spec: string,
  provider: ModelProvider,
  providers: ModelProviders,
): string | null {
  const missing = PROVIDERS[provider].missing(providers);
  return missing.length ? `${spec} needs ${missing.join(' and ')} in the environment` : null;
}

/**
 * A language model whose provider package is imported on its first call. The model is built
 * synchronously where jobs and answers are set up, but most deployments use one provider: the
 * others' packages (and their dependencies, such as google-auth-library) are never loaded.
 */
export function lazyLanguageModel(
  provider: ModelProvider,
  modelId: string,
  providers: ModelProviders,
  fetch?: typeof globalThis.fetch,
): ProviderModel {
  let loading: Promise<ProviderModel> | undefined;
  const model = () =>
    (loading ??= PROVIDERS[provider].load(modelId, providers, fetch).catch((error: unknown) => {
      // A failed import is not kept: the next call tries again.
      loading = undefined;
      throw error;
    }));
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((loaded) => loaded.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}
