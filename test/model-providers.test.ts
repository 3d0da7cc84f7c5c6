import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateText } from 'ai';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseInputs } from '../src/action/inputs.js';
import { readRunnerEnvironment } from '../src/action/environment.js';
import { createAgentResolver } from '../src/agent/registry.js';
import { ModelAnswerer } from '../src/assistant/answer/model.js';
import { loadConfig } from '../src/config/config.js';
import { silentLogger } from '../src/core/logger.js';
import { MODEL_PROVIDERS } from '../src/core/model-spec.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { parseSettings } from '../src/github/settings.js';
import {
  checkModelCredentials,
  languageModel,
  modelProvidersFrom,
  providerSecrets,
  type ModelProviders,
} from '../src/models/models.js';
import { ConfigError } from '../src/core/errors.js';
import { createService } from '../src/service/service.js';
import { parseModelSpec } from '../src/core/model-spec.js';
import {
  bedrockConverse,
  chatCompletions,
  gemini,
  RawReply,
  serveProviderStandIn,
  type Received,
  type WireFormat,
} from './helpers/provider-stand-ins.js';
import { policyFor } from './helpers/write-policy.js';

/**
 * Every provider through its real AI SDK package, against a stand-in of its API on a loopback
 * socket that DOCWRIGHT_MODEL_BASE_URL points at: a job's tool-calling turn, built the way jobs
 * build their model, and a streamed answer, built the way the assistant builds it.
 */

function runInput() {
  return {
    jobId: 'job-1',
    instructions: ['Say what you find'],
    history: [],
    files: new Overlay(
      new MemorySnapshot('base', [['setup.mdx', '---\ntitle: Setup\n---\n\nRun `acme install`.\n']]),
    ),
    policy: policyFor(),
    signal: new AbortController().signal,
    logger: silentLogger,
  };
}

async function streamedAnswer(spec: string, env: Record<string, string>): Promise<string> {
  const model = languageModel(spec, modelProvidersFrom(env));
  const answer = new ModelAnswerer(model!, spec).answer({
    conversation: [{ role: 'user', text: 'How do I install it?' }],
    query: 'How do I install it?',
    passages: [],
    holdsPhrase: () => false,
    followUp: false,
    signal: new AbortController().signal,
  });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return text;
}

/** A Workload Identity Federation credential file, as google-github-actions/auth writes one. */
async function externalAccountCredentials(tokenUrl: string): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-adc-'));
  await fs.writeFile(path.join(folder, 'subject-token'), 'github-oidc-token');
  const file = path.join(folder, 'credentials.json');
  await fs.writeFile(
    file,
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/github',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: tokenUrl,
      credential_source: { file: path.join(folder, 'subject-token') },
    }),
  );
  return file;
}

interface ProviderCase {
  spec: string;
  wire: WireFormat;
  /** The environment that points the provider at the stand-in (`url`) with its credentials. */
  env: (url: string) => Record<string, string>;
  /** The model request's path on the stand-in. */
  path: RegExp;
  authenticated: (request: Received) => void;
}

const CASES: ProviderCase[] = [
  {
    spec: 'bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0',
    wire: bedrockConverse,
    env: (url) => ({
      DOCWRIGHT_MODEL_BASE_URL: url,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDSTANDIN',
      AWS_SECRET_ACCESS_KEY: 'stand-in-secret',
      AWS_SESSION_TOKEN: 'stand-in-session',
    }),
    path: /^\/model\/anthropic\.claude-sonnet-4-5-20250929-v1%3A0\/converse(-stream)?$/,
    authenticated: (request) => {
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDSTANDIN\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
      );
      expect(request.headers['x-amz-security-token']).toBe('stand-in-session');
    },
  },
  {
    spec: 'google:gemini-2.5-flash',
    wire: gemini,
    env: (url) => ({ DOCWRIGHT_MODEL_BASE_URL: `${url}/v1beta`, GOOGLE_GENERATIVE_AI_API_KEY: 'google-key' }),
    path: /^\/v1beta\/models\/gemini-2\.5-flash:(generateContent|streamGenerateContent\?alt=sse)$/,
    authenticated: (request) => expect(request.headers['x-goog-api-key']).toBe('google-key'),
  },
  {
    spec: 'vertex:gemini-2.5-pro',
    wire: gemini,
    env: (url) => ({
      DOCWRIGHT_MODEL_BASE_URL: `${url}/v1/projects/acme/locations/europe-west4/publishers/google`,
      GOOGLE_VERTEX_PROJECT: 'acme',
      GOOGLE_VERTEX_LOCATION: 'europe-west4',
    }),
    path: /^\/v1\/projects\/acme\/locations\/europe-west4\/publishers\/google\/models\/gemini-2\.5-pro:(generateContent|streamGenerateContent\?alt=sse)$/,
    // Application default credentials: the federated token google-auth-library got from the STS stand-in.
    authenticated: (request) => expect(request.headers.authorization).toBe('Bearer sts-access-token'),
  },
  {
    spec: 'azure:docs-gpt-4o',
    wire: chatCompletions,
    env: (url) => ({ DOCWRIGHT_MODEL_BASE_URL: `${url}/openai/v1`, AZURE_API_KEY: 'azure-key' }),
    path: /^\/openai\/v1\/chat\/completions$/,
    authenticated: (request) => {
      expect(request.headers['api-key']).toBe('azure-key');
      expect(request.body.model).toBe('docs-gpt-4o');
    },
  },
  {
    spec: 'ollama:llama3.1',
    wire: chatCompletions,
    env: (url) => ({ DOCWRIGHT_MODEL_BASE_URL: `${url}/v1` }),
    path: /^\/v1\/chat\/completions$/,
    authenticated: (request) => {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.body.model).toBe('llama3.1');
    },
  },
  {
    spec: 'openai-compatible:qwen2.5-coder',
    wire: chatCompletions,
    env: (url) => ({ DOCWRIGHT_MODEL_BASE_URL: `${url}/v1`, DOCWRIGHT_MODEL_API_KEY: 'gateway-key' }),
    path: /^\/v1\/chat\/completions$/,
    authenticated: (request) => {
      expect(request.headers.authorization).toBe('Bearer gateway-key');
      expect(request.body.model).toBe('qwen2.5-coder');
    },
  },
];

const STS_TOKEN = {
  access_token: 'sts-access-token',
  issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  token_type: 'Bearer',
  expires_in: 3600,
};

describe.each(CASES)(
  '$spec through its AI SDK package',
  ({ spec, wire, env, path: modelPath, authenticated }) => {
    let standIn: Awaited<ReturnType<typeof serveProviderStandIn>>;
    afterEach(async () => {
      vi.unstubAllEnvs();
      await standIn.close();
    });

    async function serve(options: Parameters<typeof serveProviderStandIn>[1]) {
      standIn = await serveProviderStandIn(wire, { ...options, routes: { '/sts/token': () => STS_TOKEN } });
      // Vertex reads its application default credentials through google-auth-library, from this variable.
      vi.stubEnv(
        'GOOGLE_APPLICATION_CREDENTIALS',
        await externalAccountCredentials(`${standIn.url}/sts/token`),
      );
      return env(standIn.url);
    }

    it('runs a job: a tool call, its result sent back, then the final text', async () => {
      const variables = await serve({ steps: [{ call: ['list_files', {}] }, { text: 'Nothing to change' }] });
      const agent = createAgentResolver(modelProvidersFrom(variables))(spec);
      const result = await agent.run(runInput());
      expect(result.reply).toBe('Nothing to change');
      const requests = standIn.modelRequests();
      expect(requests).toHaveLength(2);
      for (const request of requests) {
        expect(request.url).toMatch(modelPath);
        authenticated(request);
      }
      // The second request carries the tool's result: the file list, with the page in it.
      expect(JSON.stringify(requests[1]!.body)).toContain('setup.mdx');
    });

    it('streams an assistant answer', async () => {
      const variables = await serve({ streamed: ['Run ', '`acme install` ', '[1].'] });
      expect(await streamedAnswer(spec, variables)).toBe('Run `acme install` [1].');
      const [request] = standIn.modelRequests();
      expect(request!.url).toMatch(modelPath);
      authenticated(request!);
    });
  },
);

describe('a provider without its settings', () => {
  const none = modelProvidersFrom({});
  it.each([
    ['openai:gpt-5-mini', 'OPENAI_API_KEY'],
    ['anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['bedrock:amazon.nova-pro-v1:0', 'AWS_REGION and AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY'],
    ['google:gemini-2.5-flash', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    ['vertex:gemini-2.5-pro', 'GOOGLE_VERTEX_PROJECT and GOOGLE_VERTEX_LOCATION'],
    ['azure:docs-gpt-4o', 'AZURE_RESOURCE_NAME (or DOCWRIGHT_MODEL_BASE_URL) and AZURE_API_KEY'],
    ['openai-compatible:qwen2.5-coder', 'DOCWRIGHT_MODEL_BASE_URL'],
  ])('%s is refused before any work, naming %s', (spec, variables) => {
    expect(() => languageModel(spec, none)).toThrow(`${spec} needs ${variables}`);
    // A job fails in the same words, without retrying.
    expect(() => createAgentResolver(none)(spec)).toThrow(expect.objectContaining({ retryable: false }));
    expect(() => createAgentResolver(none)(spec)).toThrow(`${spec} needs ${variables}`);
  });

  it('names what is missing, never a value that is set', () => {
    const partial = modelProvidersFrom({ AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDVISIBLE' });
    expect(() => languageModel('bedrock:amazon.nova-pro-v1:0', partial)).toThrow(
      /^bedrock:amazon\.nova-pro-v1:0 needs AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY .*, or AWS_BEARER_TOKEN_BEDROCK in the environment$/,
    );
    expect(() => languageModel('bedrock:amazon.nova-pro-v1:0', partial)).not.toThrow(/AKIDVISIBLE/);
  });

  it('accepts the alternatives: a Bedrock API key, Vertex express mode, Ollama on its default port', () => {
    expect(
      languageModel(
        'bedrock:m',
        modelProvidersFrom({ AWS_REGION: 'us-east-1', AWS_BEARER_TOKEN_BEDROCK: 'k' }),
      ),
    ).not.toBeNull();
    expect(languageModel('vertex:m', modelProvidersFrom({ GOOGLE_VERTEX_API_KEY: 'k' }))).not.toBeNull();
    expect(languageModel('ollama:llama3.1', none)).not.toBeNull();
  });

  it('fails the service start and the Action in words too', () => {
    expect(() => loadConfig({ DOCWRIGHT_MODEL: 'google:gemini-2.5-flash' })).not.toThrow();
    const { providers } = readRunnerEnvironment({ AWS_REGION: 'us-east-1' });
    expect(() => languageModel('bedrock:m', providers)).toThrow(/needs AWS_ACCESS_KEY_ID/);
  });
});

describe('the credentials', () => {
  it('are the secrets the Action masks and the server redacts; names and regions are not', () => {
    const env = {
      OPENAI_API_KEY: 's1',
      ANTHROPIC_API_KEY: 's2',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 's3',
      AWS_SESSION_TOKEN: 's4',
      AWS_BEARER_TOKEN_BEDROCK: 's5',
      GOOGLE_GENERATIVE_AI_API_KEY: 's6',
      GOOGLE_VERTEX_PROJECT: 'acme',
      GOOGLE_VERTEX_API_KEY: 's7',
      AZURE_RESOURCE_NAME: 'acme',
      AZURE_API_KEY: 's8',
      DOCWRIGHT_MODEL_API_KEY: 's9',
    };
    const secrets = providerSecrets(readRunnerEnvironment(env).providers).filter(Boolean).sort();
    expect(secrets).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9']);
    expect(providerSecrets(loadConfig(env).providers).filter(Boolean).sort()).toEqual(secrets);
  });
});

describe('the default endpoints', () => {
  /** The address the model's first request goes to (the request itself is refused). */
  async function firstUrl(spec: string, env: Record<string, string>): Promise<string> {
    const urls: string[] = [];
    const model = languageModel(spec, modelProvidersFrom(env), (input) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return Promise.reject(new Error('not served'));
    });
    await expect(generateText({ model: model!, prompt: 'Hello', maxRetries: 0 })).rejects.toThrow();
    return urls[0] ?? '';
  }

  it('Ollama: the local server', async () => {
    expect(await firstUrl('ollama:llama3.1', {})).toBe('http://localhost:11434/v1/chat/completions');
  });

  it("Azure: the resource's v1 API, the deployment named in the body", async () => {
    expect(await firstUrl('azure:docs-gpt-4o', { AZURE_RESOURCE_NAME: 'acme', AZURE_API_KEY: 'k' })).toBe(
      'https://acme.openai.azure.com/openai/v1/chat/completions?api-version=v1',
    );
  });

  it("Bedrock: the region's runtime", async () => {
    expect(
      await firstUrl('bedrock:amazon.nova-pro-v1:0', {
        AWS_REGION: 'eu-central-1',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toBe('https://bedrock-runtime.eu-central-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse');
  });
});

describe('a model string', () => {
  const unknown =
    'Unknown model "mistral:large": use builtin or <provider>:<model>, with provider one of openai, anthropic, bedrock, google, vertex, azure, ollama, openai-compatible';

  it('with an unknown provider is refused with the known ones', () => {
    expect(() => parseModelSpec('mistral:large')).toThrow(unknown);
    expect(() => languageModel('mistral:large', modelProvidersFrom({}))).toThrow(unknown);
  });

  const specs = [
    'builtin',
    ...MODEL_PROVIDERS.map((provider) => `${provider}:some-model`),
    'bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'mistral:large',
    'gpt-5',
    'google:',
  ];

  /** What each place that names a model makes of a string: its value, or its problem. */
  function readEverywhere(spec: string) {
    const attempt = (read: () => unknown) => {
      try {
        return { value: read() };
      } catch (error) {
        return { problem: (error as Error).message };
      }
    };
    return {
      // `--model` of the CLI goes through parseModelSpec.
      cli: attempt(() => (parseModelSpec(spec), spec)),
      server: attempt(() => loadConfig({ DOCWRIGHT_MODEL: spec }).model),
      settings: attempt(() => parseSettings({ model: spec }).model),
      action: attempt(
        () => parseInputs((name) => ({ 'github-token': 'ghs_token', model: spec })[name] ?? '').model,
      ),
    };
  }

  it.each(specs)('"%s" means the same from the CLI, the server, the settings file and the Action', (spec) => {
    const everywhere = readEverywhere(spec);
    const problem = 'problem' in everywhere.cli ? everywhere.cli.problem : null;
    for (const [place, read] of Object.entries(everywhere)) {
      if (problem === null) expect(read, place).toEqual({ value: spec });
      else expect('problem' in read && read.problem, place).toContain(problem);
    }
  });
});

describe('the provider packages', () => {
  let source: string;
  beforeAll(async () => {
    source = await fs.readFile(new URL('../src/models/language-models.ts', import.meta.url), 'utf8');
  });

  it('are imported only inside their factories, by names a bundler can follow', async () => {
    expect(source).not.toMatch(/^import [^t].*'@ai-sdk\//m);
    // The AWS credential chain too, out of the Action's bundle, left for Node to import at run time.
    expect(source).not.toContain('@aws-sdk/credential-provider-node');
    const chain = await fs.readFile(
      new URL('../src/models/aws-credential-chain.ts', import.meta.url),
      'utf8',
    );
    expect(chain).not.toMatch(/^import [^t].*'@aws-sdk\//m);
    expect(chain).toContain("import(/* webpackIgnore: true */ '@aws-sdk/credential-provider-node')");
    for (const name of [
      'openai',
      'anthropic',
      'amazon-bedrock',
      'google',
      'google-vertex',
      'azure',
      'openai-compatible',
    ])
      expect(source).toContain(`await import('@ai-sdk/${name}')`);
  });
});

describe('Bedrock through the AWS credential chain', () => {
  const spec = 'bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0';
  let standIn: Awaited<ReturnType<typeof serveProviderStandIn>> | undefined;
  let folder: string;

  /**
   * The chain's environment, each source absent unless a test sets it: no keys, no profile, no
   * web identity, no container, and no instance metadata, which would otherwise be probed.
   */
  beforeEach(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-aws-'));
    for (const name of [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_BEARER_TOKEN_BEDROCK',
      'AWS_PROFILE',
      'AWS_DEFAULT_PROFILE',
      'AWS_WEB_IDENTITY_TOKEN_FILE',
      'AWS_ROLE_ARN',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
      'AWS_CONTAINER_AUTHORIZATION_TOKEN',
    ])
      vi.stubEnv(name, '');
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    // Files of this test's own (the SDK caches what it read by path), absent unless written.
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', path.join(folder, 'credentials'));
    vi.stubEnv('AWS_CONFIG_FILE', path.join(folder, 'config'));
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await standIn?.close();
    standIn = undefined;
    await fs.rm(folder, { recursive: true, force: true });
  });

  /** The settings the service reads, with the chain allowed as the service allows it. */
  function serviceProviders(env: Record<string, string>) {
    const providers = modelProvidersFrom({ AWS_REGION: 'eu-west-1', ...env });
    providers.bedrock = { ...providers.bedrock, credentialChain: true };
    return providers;
  }

  async function runJob(providers: ModelProviders) {
    const result = await createAgentResolver(providers)(spec).run(runInput());
    expect(result.reply).toBe('Nothing to change');
    return standIn!.modelRequests();
  }

  it('signs with the keys of the profile AWS_PROFILE names, from the shared credentials file', async () => {
    await fs.writeFile(
      path.join(folder, 'credentials'),
      '[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = default-secret\n\n' +
        '[docs-team]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = profile-secret\naws_session_token = profile-session\n',
    );
    vi.stubEnv('AWS_PROFILE', 'docs-team');
    standIn = await serveProviderStandIn(bedrockConverse, {
      steps: [{ call: ['list_files', {}] }, { text: 'Nothing to change' }],
    });
    const providers = serviceProviders({ DOCWRIGHT_MODEL_BASE_URL: standIn.url });
    await expect(checkModelCredentials(spec, providers)).resolves.toBeUndefined();
    const requests = await runJob(providers);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDPROFILE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
      );
      expect(request.headers['x-amz-security-token']).toBe('profile-session');
    }
  });

  it("signs with a container's task role, from the credentials endpoint", async () => {
    standIn = await serveProviderStandIn(bedrockConverse, {
      steps: [{ call: ['list_files', {}] }, { text: 'Nothing to change' }],
      routes: {
        '/task-role': () => ({
          AccessKeyId: 'ASIATASKROLE',
          SecretAccessKey: 'task-secret',
          Token: 'task-session',
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      },
    });
    vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', `${standIn.url}/task-role`);
    vi.stubEnv('AWS_CONTAINER_AUTHORIZATION_TOKEN', 'container-auth');
    const requests = await runJob(serviceProviders({ DOCWRIGHT_MODEL_BASE_URL: standIn.url }));
    expect(requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIATASKROLE\//);
    expect(requests[0]!.headers['x-amz-security-token']).toBe('task-session');
    const asked = standIn.received.filter((request) => request.url === '/task-role');
    // Once for the job's two model calls: the chain keeps the role's credentials until they expire.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers.authorization).toBe('container-auth');
  });

  it('signs with the role a web identity token assumes, through STS', async () => {
    await fs.writeFile(path.join(folder, 'token'), 'oidc-token-of-the-pod');
    standIn = await serveProviderStandIn(bedrockConverse, {
      steps: [{ call: ['list_files', {}] }, { text: 'Nothing to change' }],
      routes: {
        '/': () =>
          new RawReply(
            'text/xml',
            `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <AssumeRoleWithWebIdentityResult>
                <Credentials>
                  <AccessKeyId>ASIAWEBIDENTITY</AccessKeyId>
                  <SecretAccessKey>web-identity-secret</SecretAccessKey>
                  <SessionToken>web-identity-session</SessionToken>
                  <Expiration>${new Date(Date.now() + 3_600_000).toISOString()}</Expiration>
                </Credentials>
                <AssumedRoleUser>
                  <Arn>arn:aws:sts::123456789012:assumed-role/docs-writer/docwright</Arn>
                  <AssumedRoleId>AROAEXAMPLE:docwright</AssumedRoleId>
                </AssumedRoleUser>
              </AssumeRoleWithWebIdentityResult>
            </AssumeRoleWithWebIdentityResponse>`,
          ),
      },
    });
    vi.stubEnv('AWS_WEB_IDENTITY_TOKEN_FILE', path.join(folder, 'token'));
    vi.stubEnv('AWS_ROLE_ARN', 'arn:aws:iam::123456789012:role/docs-writer');
    vi.stubEnv('AWS_ROLE_SESSION_NAME', 'docwright');
    // STS's endpoint, by the SDK's own variable for it.
    vi.stubEnv('AWS_ENDPOINT_URL_STS', standIn.url);
    const requests = await runJob(serviceProviders({ DOCWRIGHT_MODEL_BASE_URL: standIn.url }));
    expect(requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAWEBIDENTITY\//);
    expect(requests[0]!.headers['x-amz-security-token']).toBe('web-identity-session');
    const [assumed] = standIn.received.filter((request) => request.url === '/');
    expect(assumed!.body.form).toMatchObject({
      Action: 'AssumeRoleWithWebIdentity',
      RoleArn: 'arn:aws:iam::123456789012:role/docs-writer',
      WebIdentityToken: 'oidc-token-of-the-pod',
    });
  });

  it('signs with the keys in the environment when they are set, even beside AWS_PROFILE', async () => {
    vi.stubEnv('AWS_PROFILE', 'absent');
    standIn = await serveProviderStandIn(bedrockConverse, {
      steps: [{ call: ['list_files', {}] }, { text: 'Nothing to change' }],
    });
    const providers = serviceProviders({
      DOCWRIGHT_MODEL_BASE_URL: standIn.url,
      AWS_ACCESS_KEY_ID: 'AKIDENV',
      AWS_SECRET_ACCESS_KEY: 'env-secret',
    });
    await expect(checkModelCredentials(spec, providers)).resolves.toBeUndefined();
    const [request] = await runJob(providers);
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDENV\//);
  });

  it('stops the service start in a sentence naming the ways to give credentials when none is found', async () => {
    // A profile whose credential_process fails, with a token in its command line: whatever the
    // chain says of it, the sentence quotes nothing of the chain's.
    await fs.writeFile(
      path.join(folder, 'config'),
      '[profile docs-team]\ncredential_process = /bin/false --token s3cr3t-in-argv\n',
    );
    vi.stubEnv('AWS_PROFILE', 'docs-team');
    const dataDir = await fs.mkdtemp(path.join(folder, 'data-'));
    const config = loadConfig({ DOCWRIGHT_MODEL: spec, AWS_REGION: 'eu-west-1' }, { dataDir });
    const started = Date.now();
    const start = createService(config, { logger: silentLogger });
    await expect(start).rejects.toThrow(
      `${spec} found no AWS credentials: set AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY, AWS_PROFILE (a profile of the shared credentials or config file), AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN, a container task role or an EC2 instance profile, or AWS_BEARER_TOKEN_BEDROCK, with AWS_REGION`,
    );
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.not.toThrow(/s3cr3t/);
    expect(Date.now() - started).toBeLessThan(4_000);
    // Before any work: nothing was opened in the data folder.
    expect(await fs.readdir(dataDir)).toEqual([]);
    // A project's own Bedrock model, which the start did not ask about, fails its job in the same words.
    const job = createAgentResolver(serviceProviders({}))(spec).run(runInput());
    await expect(job).rejects.toThrow(/found no AWS credentials: set AWS_ACCESS_KEY_ID/);
    await expect(job).rejects.not.toThrow(/s3cr3t/);
    // The region is still asked for at once, before the chain.
    await expect(
      createService(loadConfig({ DOCWRIGHT_MODEL: spec }, { dataDir }), { logger: silentLogger }),
    ).rejects.toThrow(`${spec} needs AWS_REGION in the environment`);
  });

  it('gives up on a credentials endpoint that does not answer, in words', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', `http://127.0.0.1:${port}/task-role`);
      const { checkAwsCredentials } = await import('../src/models/aws-credential-chain.js');
      await expect(checkAwsCredentials(spec, serviceProviders({}).bedrock!, 300)).rejects.toThrow(
        `${spec} found no AWS credentials within 0.3 s: set AWS_ACCESS_KEY_ID`,
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('is not asked where it is not allowed: the Action reads the keys in the environment only', async () => {
    vi.stubEnv('AWS_PROFILE', 'docs-team');
    const { providers } = readRunnerEnvironment({ AWS_REGION: 'eu-west-1', AWS_PROFILE: 'docs-team' });
    expect(() => languageModel(spec, providers)).toThrow(
      `${spec} needs AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY`,
    );
    await expect(checkModelCredentials(spec, providers)).resolves.toBeUndefined();
  });
});
