/**
 * Words readers use for what documentation sites call by another name. Each entry maps reader
 * wording (single words or phrases) to the words docs write; a question holding the former is also
 * searched for the latter. Kept small and general to documentation and developer products: a
 * site's own vocabulary (titles, navigation groups, descriptions) is indexed with its pages instead.
 */
interface SynonymEntry {
  reader: string[];
  docs: string[];
}

const ENTRIES: SynonymEntry[] = [
  { reader: ['log in', 'login', 'logged in', 'sign in', 'signin', 'sign on'], docs: ['authentication', 'auth', 'sso'] },
  { reader: ['cut off', 'cuts off', 'talk over', 'barge in', 'interrupt'], docs: ['interruption', 'interruptions'] },
  { reader: ['ignore', 'ignores', 'silence', 'mute'], docs: ['mute', 'muting', 'exclude'] },
  { reader: ['key', 'keys', 'password', 'passwords', 'credential', 'credentials'], docs: ['secret', 'secrets', 'token', 'credentials'] },
  { reader: ['env var', 'env vars', 'environment variable', 'environment variables'], docs: ['env', 'environment', 'secrets'] },
  { reader: ['quiet', 'silent', 'inactive', 'inactivity'], docs: ['idle'] },
  { reader: ['turn off', 'turn them off', 'turn it off', 'switch off', 'opt out'], docs: ['disable', 'disabled'] },
  { reader: ['turn on', 'turn them on', 'turn it on', 'switch on', 'opt in'], docs: ['enable', 'enabled'] },
  { reader: ['hang up', 'hangs up', 'shut down'], docs: ['end', 'terminate', 'termination'] },
  { reader: ['slow', 'fast', 'faster', 'speed', 'delay', 'lag'], docs: ['latency', 'performance'] },
  { reader: ['logs'], docs: ['logging'] },
  { reader: ['monitor', 'monitoring', 'observe', 'trace', 'tracing'], docs: ['observability', 'metrics', 'tracing'] },
  { reader: ['set up', 'setup', 'configure'], docs: ['configuration', 'setup', 'install'] },
  { reader: ['install', 'installed', 'installing', 'installation', 'get started', 'getting started'], docs: ['quickstart', 'installation'] },
  { reader: ['translate', 'translation', 'languages', 'multilingual', 'localize', 'localization'], docs: ['internationalization', 'i18n', 'localization'] },
  { reader: ['colors', 'colours', 'branding', 'look', 'dark mode'], docs: ['appearance', 'theme', 'themes'] },
  { reader: ['tracking', 'track', 'visitors', 'stats'], docs: ['analytics'] },
  { reader: ['transcribe', 'transcription', 'dictation'], docs: ['stt', 'speech'] },
  { reader: ['phone', 'phones', 'phone call', 'phone calls', 'dial'], docs: ['telephony', 'dial'] },
  { reader: ['permission', 'permissions', 'access'], docs: ['roles', 'access'] },
  { reader: ['upgrade', 'upgrading', 'move my', 'move our', 'moving my', 'moving our', 'move from', 'moving from', 'switch from'], docs: ['migration', 'migrate'] },
  { reader: ['search engine', 'search engines', 'google ranking', 'rank higher'], docs: ['seo', 'indexing'] },
  { reader: ['private', 'restrict', 'restricted', 'protect'], docs: ['authentication', 'access'] },
  { reader: ['bot', 'bots'], docs: ['agent'] },
  { reader: ['folder', 'folders'], docs: ['directory'] },
  { reader: ['host', 'hosting', 'publish', 'go live'], docs: ['deploy', 'deployment'] },
  { reader: ['test', 'tests', 'testing'], docs: ['eval', 'evals', 'testing'] },
  { reader: ['background noise', 'noisy', 'noise'], docs: ['noise', 'filter', 'cancellation'] },
  { reader: ['answering machine'], docs: ['voicemail'] },
  { reader: ['phone menu', 'phone tree', 'press 1'], docs: ['ivr'] },
  { reader: ['keypad', 'touch tone', 'button presses'], docs: ['dtmf'] },
  { reader: ['remember', 'memory'], docs: ['memory', 'state'] },
  { reader: ['tool', 'tools', 'tool use'], docs: ['function', 'calling'] },
  { reader: ['flowchart', 'diagram', 'diagrams', 'chart'], docs: ['mermaid', 'diagram'] },
  { reader: ['collapsible', 'collapse', 'expand', 'expands', 'toggle section'], docs: ['accordion', 'expandable'] },
  { reader: ['warning box', 'note box', 'alert', 'admonition'], docs: ['callout', 'warning'] },
  { reader: ['hover', 'hovers'], docs: ['tooltip'] },
  { reader: ['not found page', 'page not found'], docs: ['404'] },
  { reader: ['localhost', 'locally', 'my computer', 'my laptop'], docs: ['local', 'preview', 'dev'] },
  { reader: ['error', 'errors', 'fails', 'failed', 'broken', "doesn't work", 'not working'], docs: ['troubleshooting', 'error'] },
  { reader: ['price', 'pricing', 'cost', 'costs', 'billing'], docs: ['pricing', 'billing', 'credits'] },
  { reader: ['subfolder', 'subdirectory', 'under a path', '/docs'], docs: ['subpath'] },
  { reader: ['old link', 'old links', 'old url', 'moved page'], docs: ['redirect', 'redirects'] },
  { reader: ['spreadsheet', 'csv'], docs: ['export', 'csv'] },
  { reader: ['shortcut', 'shortcuts', 'hotkeys'], docs: ['keyboard', 'shortcuts'] },
  { reader: ['announcement'], docs: ['banner'] },
  { reader: ['iphone', 'ipad', 'swift'], docs: ['ios'] },
  { reader: ['mac', 'macbook'], docs: ['macos'] },
  { reader: ['users from', 'provision', 'provisioning'], docs: ['scim', 'provisioning'] },
  { reader: ['who changed', 'change history', 'activity log', 'activity history'], docs: ['audit', 'logs'] },
  { reader: ['swap', 'swapping', 'swap out'], docs: ['switch', 'switcher', 'switching'] },
  { reader: ['kick off', 'kicks off', 'set off'], docs: ['trigger'] },
  { reader: ['backend', 'from my server', 'server-side', 'over http', 'http request', 'programmatically', 'curl'], docs: ['api', 'endpoint'] },
  { reader: ['should i use', 'which should i', 'which one should', 'difference between', 'versus', 'vs'], docs: ['choosing', 'choose', 'comparison'] },
  { reader: ['copy-paste', 'copy-pasting', 'copy paste', 'copy and paste', 'reuse', 'reusing'], docs: ['snippets', 'reusable'] },
  { reader: ['bigger repository', 'larger repository', 'same repository', 'same repo', 'main repo', 'code repo'], docs: ['monorepo'] },
  { reader: ['typed', 'type into', 'searched for', 'looked for'], docs: ['queries', 'searches'] },
  { reader: ['run ourselves', 'host ourselves', 'our own server', 'our own servers', 'on-prem', 'on premises', 'on-premises', 'in-house'], docs: ['self-hosted', 'self-host'] },
  { reader: ['call someone', 'phone someone', 'call people', 'call out', 'calling out', 'outbound call', 'outbound calls', 'make calls'], docs: ['dial-out', 'outbound'] },
  { reader: ['status', 'statuses'], docs: ['state', 'states'] },
  { reader: ['llm', 'language model', 'ai model'], docs: ['model', 'models'] },
  { reader: ['docs chat', 'chat with the docs', 'chat with our docs'], docs: ['assistant'] },
  { reader: ['spec', 'specs'], docs: ['specification', 'schema'] },
  { reader: ['renovate', 'dependabot'], docs: ['bot', 'bots'] },
  { reader: ['text-to-speech', 'text to speech', 'speech synthesis'], docs: ['tts'] },
  { reader: ['clip', 'clips'], docs: ['video'] },
  { reader: ['in the middle of', 'halfway through', 'partway through'], docs: ['mid'] },
  { reader: ['mm-hmm', 'uh-huh'], docs: ['backchannel'] },
  { reader: ['who said what', 'who is speaking', 'who spoke', 'which speaker'], docs: ['diarization', 'speaker'] },
  { reader: ['no internet', 'without internet', 'on-device', 'on device'], docs: ['local', 'offline'] },
  { reader: ['top bar', 'top nav', 'header bar', 'top navigation'], docs: ['navbar'] },
  { reader: ['hint text', 'placeholder text', 'grey text'], docs: ['placeholder'] },
  { reader: ['chatbot', 'chatbots', 'chat bot', 'ai chat', 'ask ai'], docs: ['assistant'] },
  { reader: ['depending on who', 'per user', 'each user', 'different users'], docs: ['personalization', 'personalized'] },
]; // prettier-ignore

/** Reader wording -> docs words, with multi-word wording kept apart (matched on the raw text). */
const SINGLE = new Map<string, string[]>();
const PHRASES: { pattern: RegExp; docs: string[] }[] = [];
for (const entry of ENTRIES) {
  for (const wording of entry.reader) {
    if (/^[a-z0-9]+$/.test(wording)) SINGLE.set(wording, [...(SINGLE.get(wording) ?? []), ...entry.docs]);
    else {
      const escaped = wording.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+');
      PHRASES.push({
        pattern: new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu'),
        docs: entry.docs,
      });
    }
  }
}

/** Docs words for one reader word (lower-cased), or none. */
export function synonymsOfWord(word: string): readonly string[] {
  return SINGLE.get(word) ?? [];
}

/** Docs words for the reader phrases of `text` ("cut off", "log in"), which single words miss. */
export function phraseSynonyms(text: string): { phrase: string; docs: string[] }[] {
  const found: { phrase: string; docs: string[] }[] = [];
  for (const { pattern, docs } of PHRASES) {
    const match = pattern.exec(text);
    if (match) found.push({ phrase: match[0].trim().toLowerCase(), docs });
  }
  return found;
}
