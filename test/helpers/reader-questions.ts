/**
 * Readers' questions about docwright's own docs (docs/), as people type them: topics the docs
 * cover, topics they do not (each in several wordings), and questions for another place altogether.
 */

/** Topics the docs cover, a few wordings each. */
export const COVERED: Record<string, string[]> = {
  install: [
    'How do I install docwright?',
    'What Node.js version does docwright need?',
    'how to run the server locally with npm start',
  ],
  jobs: [
    'How do I create a job with curl?',
    'How do I poll a job until it is completed?',
    'What does the status of a job mean?',
  ],
  postgres: [
    'How do I use PostgreSQL instead of SQLite?',
    'Where do I set DATABASE_URL?',
    'Can several replicas share one Postgres database?',
  ],
  action: [
    'How do I use the GitHub Action in a workflow?',
    'What inputs does the GitHub Action take?',
    'How does the docs check on pull requests work?',
  ],
  assistant: [
    'How do I embed the chat widget on my docs site?',
    'What is an assistant key?',
    'How do I use useChat with the assistant endpoint?',
  ],
  limits: ['What are the rate limits of the assistant?', 'How many jobs can a project create per hour?'],
  model: ['How do I use an OpenAI model for jobs?', 'How do I configure Anthropic as the model?'],
  frameworks: ['Does docwright work with Docusaurus?', 'How does docwright edit the MkDocs navigation?'],
};

/**
 * Topics the docs do not cover, each in several wordings, with how many readers ask about each:
 * the report must rank them in this order.
 */
export const UNCOVERED: { topic: string; readers: number; wordings: string[] }[] = [
  {
    topic: 'confluence',
    readers: 24,
    wordings: [
      'Can I import our pages from Confluence?',
      'How do I migrate a Confluence space into the docs?',
      'Is there a Confluence importer?',
      'import confluence pages',
      'Can docwright sync docs from Confluence?',
      'Moving from Confluence: can the existing Confluence pages be imported?',
    ],
  },
  {
    topic: 'gitlab',
    readers: 15,
    wordings: [
      'Does docwright work with GitLab?',
      'Can I use docwright on a GitLab repository?',
      'GitLab merge requests instead of GitHub pull requests?',
      'Is GitLab supported?',
      'how do I connect a self-hosted GitLab',
    ],
  },
  {
    topic: 'pdf',
    readers: 9,
    wordings: [
      'Can I export the docs as a PDF?',
      'How do I generate a PDF of the documentation?',
      'PDF export of the docs site',
      'download the documentation as pdf',
    ],
  },
  {
    topic: 'jira',
    readers: 5,
    wordings: [
      'Can a Jira ticket start a docs job?',
      'Is there a Jira integration for docs requests?',
      'create docs jobs from Jira issues',
    ],
  },
];

/** Questions the docs' subject has nothing to do with. */
export const OFF_TOPIC: string[] = [
  'What is the capital of France?',
  'How do I bake sourdough bread?',
  'Who won the football world cup in 2018?',
  'What is a good recipe for lasagna?',
  'How tall is Mount Everest?',
  'What time is it in Tokyo right now?',
  'Recommend a good science fiction novel',
  'How do I train for a marathon?',
];

/** docwright's own docs, as one site's readers. */
export const OWN_DOCS: SiteQuestions = {
  covered: COVERED,
  ratedDown: 'How do I poll a job until it is completed?',
  uncovered: UNCOVERED,
  offTopic: OFF_TOPIC,
};

/** One docs site's readers: what they ask, as the sets above are for docwright's own docs. */
export interface SiteQuestions {
  covered: Record<string, string[]>;
  /** A covered question some readers rate down, with a comment. */
  ratedDown: string;
  uncovered: { topic: string; readers: number; wordings: string[] }[];
  offTopic: string[];
}

/** The docs of a hosted docs platform (MDX pages, docs.json, an API playground, deployments). */
export const MINTLIFY: SiteQuestions = {
  covered: {
    domain: [
      'How do I set up a custom domain for my docs?',
      'What DNS record do I add for a custom subdomain?',
    ],
    navigation: [
      'How do I add a page to the navigation in docs.json?',
      'How do I create tabs and groups in the sidebar navigation?',
    ],
    playground: [
      'How do I generate API reference pages from an OpenAPI file?',
      'How do I set up the API playground with an OpenAPI spec?',
    ],
    components: [
      'How do I use the Accordion component?',
      'How do I add a code group with several languages?',
    ],
    redirects: ['How do I set up redirects for moved pages?'],
    analytics: ['How do I connect Google Analytics to my docs?'],
    pages: ['How do I hide a page from the sidebar?', 'How do I change the colors of my docs theme?'],
    preview: ['How do preview deployments work for pull requests?'],
  },
  ratedDown: 'How do I set up redirects for moved pages?',
  uncovered: [
    {
      topic: 'wordpress',
      readers: 22,
      wordings: [
        'Can I import my existing WordPress blog into the docs?',
        'How do I migrate from WordPress?',
        'Is there a WordPress plugin?',
        'wordpress migration',
        'Can the docs be embedded inside a WordPress site?',
        'We host everything on WordPress today, can we move the pages over?',
      ],
    },
    {
      topic: 'sharepoint',
      readers: 14,
      wordings: [
        'Can I import documents from SharePoint?',
        'Is there a SharePoint integration?',
        'How do I sync pages from a SharePoint site?',
        'sharepoint import',
        'Our internal docs live in SharePoint: can they be published here?',
      ],
    },
    {
      topic: 'drupal',
      readers: 9,
      wordings: [
        'How do I migrate docs from Drupal?',
        'Can I import a Drupal site?',
        'Drupal to MDX conversion',
        'moving our developer portal off Drupal',
      ],
    },
    {
      topic: 'dropbox',
      readers: 5,
      wordings: [
        'Can I store images in Dropbox and use them in pages?',
        'Is there a Dropbox integration for assets?',
        'sync docs from a Dropbox folder',
      ],
    },
  ],
  offTopic: [
    'What is the capital of France?',
    'How do I bake sourdough bread?',
    'Who won the football world cup in 2018?',
    'How tall is Mount Everest?',
    'Recommend a good science fiction novel',
    'How do I train for a marathon?',
  ],
};

/** The docs of an open-source voice-agent framework and its cloud. */
export const PIPECAT: SiteQuestions = {
  covered: {
    install: ['How do I install Pipecat?', 'What Python version does Pipecat need?'],
    telephony: [
      'How do I connect a bot to Twilio for phone calls?',
      'How do I handle an incoming phone call with Twilio?',
    ],
    interruptions: [
      'How do interruptions work when the user speaks over the bot?',
      'How do I configure voice activity detection with Silero VAD?',
    ],
    functions: [
      'How do I use function calling with an LLM?',
      'How do I register a function for the LLM to call?',
    ],
    cloud: ['How do I deploy my bot to Pipecat Cloud?', 'How do I scale agents on Pipecat Cloud?'],
    flows: ['What is Pipecat Flows?', 'How do I define nodes in Pipecat Flows?'],
    transcripts: ['How do I save transcripts of a conversation?'],
  },
  ratedDown: 'How do I save transcripts of a conversation?',
  uncovered: [
    {
      topic: 'salesforce',
      readers: 21,
      wordings: [
        'Can the bot look up a customer in Salesforce during a call?',
        'Is there a Salesforce integration?',
        'How do I write call notes to Salesforce?',
        'salesforce crm',
        'Can a voice agent create a Salesforce case?',
        'We use Salesforce for support, can the agent log calls there?',
      ],
    },
    {
      topic: 'zendesk',
      readers: 13,
      wordings: [
        'Can the bot open a Zendesk ticket after the call?',
        'Is there a Zendesk integration?',
        'How do I hand a call off to a Zendesk agent?',
        'zendesk tickets from voice calls',
        'Does Pipecat work with Zendesk?',
      ],
    },
    {
      topic: 'raspberry',
      readers: 8,
      wordings: [
        'Can I run a Pipecat bot on a Raspberry Pi?',
        'Raspberry Pi voice assistant with Pipecat',
        'Does Pipecat support running on Raspberry Pi hardware?',
        'raspberry pi microphone setup',
      ],
    },
    {
      topic: 'unreal',
      readers: 5,
      wordings: [
        'How do I use Pipecat in an Unreal Engine game?',
        'Is there an Unreal plugin for voice characters?',
        'unreal engine npc voice',
      ],
    },
  ],
  offTopic: [
    // Not the capital of France: the docs' evaluation scenarios ask a bot exactly that.
    'Who painted the Mona Lisa?',
    'How do I bake sourdough bread?',
    'Who won the football world cup in 2018?',
    'What is a good recipe for lasagna?',
    'How tall is Mount Everest?',
    'How do I train for a marathon?',
  ],
};
