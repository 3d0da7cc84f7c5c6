/**
 * AWS credentials from the SDK's own default chain, for `bedrock:` models run by the server and
 * the CLI, in the SDK's order: SSO, the shared files (the profile AWS_PROFILE names in
 * ~/.aws/credentials and ~/.aws/config, a credential_process), a web identity token
 * (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN), then a container's task role and an instance
 * profile. The environment's keys, which the chain would also read, are used without it.
 *
 * The chain's package is imported here only, and only when a Bedrock model needs it; the Action's
 * bundle leaves it out, since there the keys come from the environment (aws-actions/configure-aws-credentials).
 */
import { ConfigError } from '../core/errors.js';
import type { ModelProviders } from './provider-settings.js';

/** The credentials the chain gives, in the shape @ai-sdk/amazon-bedrock's `credentialProvider` returns. */
interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

type AwsCredentialProvider = () => Promise<AwsCredentials>;

type BedrockSettings = NonNullable<ModelProviders['bedrock']>;

/** One chain per set of settings: its credentials are cached (and refreshed before they expire) across models and jobs. */
const chains = new WeakMap<BedrockSettings, Promise<AwsCredentialProvider>>();

/** How long the start waits for the chain: a role's endpoint that does not answer must not hold it. */
const START_TIMEOUT_MS = 5_000;

/** The ways to give the chain credentials, for the sentence that says none was found. */
const WAYS =
  'AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY, AWS_PROFILE (a profile of the shared credentials or config file), ' +
  'AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN, a container task role or an EC2 instance profile, ' +
  'or AWS_BEARER_TOKEN_BEDROCK';

/** The sentence for a chain that found nothing. */
function noCredentials(spec: string): string {
  return `${spec} found no AWS credentials: set ${WAYS}, with AWS_REGION`;
}

/** Whether a Bedrock model signs with the chain's credentials: allowed, and no key in the environment. */
function usesCredentialChain(bedrock: BedrockSettings): boolean {
  return Boolean(
    bedrock.credentialChain && !bedrock.apiKey && !(bedrock.accessKeyId && bedrock.secretAccessKey),
  );
}

/** The chain's credential provider for these settings, its package imported on the first call. */
export function awsCredentialChain(bedrock: BedrockSettings): Promise<AwsCredentialProvider> {
  let chain = chains.get(bedrock);
  if (!chain) {
    // Left to Node at run time, never bundled: the Action's bundle would otherwise carry the chain's
    // clients (or, marked external, import it before its first line runs, where it is not installed).
    chain = import(/* webpackIgnore: true */ '@aws-sdk/credential-provider-node').then(
      ({ defaultProvider }) => {
        // The region of the settings, for the STS and SSO clients some of the chain's sources call.
        const provider = defaultProvider(bedrock.region ? { clientConfig: { region: bedrock.region } } : {});
        return async () => {
          try {
            const { accessKeyId, secretAccessKey, sessionToken } = await provider();
            return { accessKeyId, secretAccessKey, sessionToken };
          } catch {
            // The chain's own message is left out: it may quote a profile's credential_process command.
            throw new ConfigError(noCredentials('bedrock'));
          }
        };
      },
    );
    // A failed import is not kept: the next model tries again.
    chain.catch(() => chains.delete(bedrock));
    chains.set(bedrock, chain);
  }
  return chain;
}

/**
 * Resolves the chain's credentials once, at start, for a `bedrock:` model that signs with them:
 * a start with no way to sign stops in a sentence naming the ways to give credentials, before any
 * work.
 */
export async function checkAwsCredentials(
  spec: string,
  bedrock: BedrockSettings,
  timeoutMs = START_TIMEOUT_MS,
): Promise<void> {
  if (!usesCredentialChain(bedrock)) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const resolved = awsCredentialChain(bedrock).then((provider) => provider());
  let outcome: AwsCredentials | 'timeout';
  try {
    outcome = await Promise.race([resolved, timedOut]);
  } catch {
    throw new ConfigError(noCredentials(spec));
  } finally {
    clearTimeout(timer);
    // A chain still looking after the timeout ends on its own; its failure is not unhandled.
    resolved.catch(() => undefined);
  }
  if (outcome === 'timeout')
    throw new ConfigError(
      `${spec} found no AWS credentials within ${timeoutMs / 1000} s: set ${WAYS}, with AWS_REGION`,
    );
}
