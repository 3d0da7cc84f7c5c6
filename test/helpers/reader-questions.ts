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
