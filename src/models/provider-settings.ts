/**
 * Model providers' endpoints and credentials, read from the variables each provider's own SDK
 * documents (AWS_*, GOOGLE_*, AZURE_*, …), never from a flag or an Action input whose value could be
 * echoed in a log. `loadConfig` and the Action's environment both read them here, so the two read
 * the same names.
 */
export interface ModelProviders {
  /**
   * DOCWRIGHT_MODEL_BASE_URL: the endpoint of whichever provider the model names (a gateway, a
   * proxy, a private endpoint), in place of the provider's own.
   */
  baseUrl?: string | undefined;
  openai: { apiKey?: string | undefined; baseUrl?: string | undefined };
  anthropic: { apiKey?: string | undefined };
  bedrock?: {
    region?: string | undefined;
    accessKeyId?: string | undefined;
    secretAccessKey?: string | undefined;
    sessionToken?: string | undefined;
    /** AWS_BEARER_TOKEN_BEDROCK: a Bedrock API key, used instead of signing with the access keys. */
    apiKey?: string | undefined;
    /**
     * Whether, without a key in the environment, requests are signed with what the AWS SDK's default
     * chain finds (a profile, web identity, a task or instance role). The service allows it; the
     * Action does not, as its bundle leaves the chain out: it reads the keys above only.
     */
    credentialChain?: boolean | undefined;
  };
  google?: { apiKey?: string | undefined };
  vertex?: {
    project?: string | undefined;
    location?: string | undefined;
    /** GOOGLE_VERTEX_API_KEY: express mode; unset, application default credentials are used. */
    apiKey?: string | undefined;
  };
  azure?: { resourceName?: string | undefined; apiKey?: string | undefined };
  /** DOCWRIGHT_MODEL_API_KEY: the bearer key of an Ollama or OpenAI-compatible server that wants one. */
  compatible?: { apiKey?: string | undefined };
}

/** Every variable `modelProvidersFrom` reads. */
type ModelProviderVariable =
  | 'DOCWRIGHT_MODEL_BASE_URL'
  | 'DOCWRIGHT_MODEL_API_KEY'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'ANTHROPIC_API_KEY'
  | 'AWS_REGION'
  | 'AWS_ACCESS_KEY_ID'
  | 'AWS_SECRET_ACCESS_KEY'
  | 'AWS_SESSION_TOKEN'
  | 'AWS_BEARER_TOKEN_BEDROCK'
  | 'GOOGLE_GENERATIVE_AI_API_KEY'
  | 'GOOGLE_VERTEX_PROJECT'
  | 'GOOGLE_VERTEX_LOCATION'
  | 'GOOGLE_VERTEX_API_KEY'
  | 'AZURE_RESOURCE_NAME'
  | 'AZURE_API_KEY';

/** The providers' settings from an environment (an empty variable counts as unset). */
export function modelProvidersFrom(env: {
  readonly [name in ModelProviderVariable]?: string | undefined;
}): ModelProviders {
  const read = (name: ModelProviderVariable) => env[name] || undefined;
  return {
    baseUrl: read('DOCWRIGHT_MODEL_BASE_URL'),
    openai: { apiKey: read('OPENAI_API_KEY'), baseUrl: read('OPENAI_BASE_URL') },
    anthropic: { apiKey: read('ANTHROPIC_API_KEY') },
    bedrock: {
      region: read('AWS_REGION'),
      accessKeyId: read('AWS_ACCESS_KEY_ID'),
      secretAccessKey: read('AWS_SECRET_ACCESS_KEY'),
      sessionToken: read('AWS_SESSION_TOKEN'),
      apiKey: read('AWS_BEARER_TOKEN_BEDROCK'),
    },
    google: { apiKey: read('GOOGLE_GENERATIVE_AI_API_KEY') },
    vertex: {
      project: read('GOOGLE_VERTEX_PROJECT'),
      location: read('GOOGLE_VERTEX_LOCATION'),
      apiKey: read('GOOGLE_VERTEX_API_KEY'),
    },
    azure: { resourceName: read('AZURE_RESOURCE_NAME'), apiKey: read('AZURE_API_KEY') },
    compatible: { apiKey: read('DOCWRIGHT_MODEL_API_KEY') },
  };
}

/** The secret values among the settings, for redaction wherever text is stored, shown or logged. */
export function providerSecrets(providers: ModelProviders): (string | undefined)[] {
  return [
    providers.openai.apiKey,
    providers.anthropic.apiKey,
    providers.bedrock?.secretAccessKey,
    providers.bedrock?.sessionToken,
    providers.bedrock?.apiKey,
    providers.google?.apiKey,
    providers.vertex?.apiKey,
    providers.azure?.apiKey,
    providers.compatible?.apiKey,
  ];
}
