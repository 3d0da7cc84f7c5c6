import { describe, expect, it } from 'vitest';
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import type { ConversationTurn } from '../src/protocol/assistant.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Pages of other subjects, one short sentence each, so that a site has more than the pages a test is about. */
const otherPages = (titles: string[], says = 'settings live in the settings screen.') =>
  titles.map((title, position) => ({
    path: `settings/page-${position}.mdx`,
    content: page(title, `${title} ${says}`),
  }));

/**
 * A page whose answer to the follow-up sits in a section the thread's words do not rank: the
 * question is about interruptions in general; turning them off is one section among several.
 */
const files = [
  {
    path: 'guides/interruptions.mdx',
    content: page(
      'Interruptions',
      '## How interruptions work\n\nWhen the user speaks over the bot, the interruption stops the bot and ' +
        'interruptions cancel in-flight work.\n\n' +
        '## What interruptions keep\n\nAfter interruptions, the context keeps what the bot said before the interruption.\n\n' +
        '## Controlling them\n\nRequire a minimum number of words before a turn starts.\n\n' +
        '**Disable** them so in-flight work is never cancelled:\n\n' +
        '```python\nstart_strategy = VADUserTurnStartStrategy(enable_interruptions=False)\n```\n',
    ),
  },
  {
    path: 'guides/muting.mdx',
    content: page('User input muting', 'Mute the user during the greeting so interruptions wait.'),
  },
  ...otherPages(['Billing', 'Fonts', 'Themes', 'Search', 'Images']),
];

const index = DocsIndex.build(files);
const answerer = new ExtractiveAnswerer();

async function ask(conversation: ConversationTurn[], citedPaths?: string[], site = index) {
  const retrieval = retrieve(site, { conversation, retrievalPageSize: 5, citedPaths });
  const answer = answerer.answer({ conversation, ...retrieval, signal: new AbortController().signal });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { text, sources: answer.sources.map((source) => source.url.replace(/#.*$/, '')) };
}

describe('follow-ups that add information', () => {
  it('answers "can I turn them off?" with the section of the cited page that says how, code included', async () => {
    const first = await ask([{ role: 'user', text: 'What are interruptions?' }]);
    expect(first.sources[0]).toBe('/guides/interruptions');
    expect(first.text).not.toContain('enable_interruptions=False');
    const second = await ask(
      [
        { role: 'user', text: 'What are interruptions?' },
        { role: 'assistant', text: first.text },
        { role: 'user', text: 'can I turn them off?' },
      ],
      first.sources,
    );
    expect(second.sources[0]).toBe('/guides/interruptions');
    expect(second.text).toContain('Disable');
    expect(second.text).toContain('enable_interruptions=False');
  });

  it('brings in the section of the cited page that answers "how long does it take?"', async () => {
    const domain = DocsIndex.build([
      {
        path: 'guides/custom-domain.mdx',
        content: page(
          'Custom domain',
          '## Add your custom domain\n\nAdd the custom domain in the domain settings: type the domain and add it.\n\n' +
            '## Verify the custom domain\n\nAdd a TXT record so we can verify the custom domain is yours; the domain shows as verified.\n\n' +
            '## Timing\n\nDNS changes take up to 48 hours to reach every resolver.',
        ),
      },
      {
        path: 'guides/dns.mdx',
        content: page('DNS records', 'A CNAME record points your custom domain at the docs host.'),
      },
      ...otherPages(
        ['Builds', 'Previews', 'Search', 'Exports', 'Images'],
        'take a long time when the site is large; most take a minute.',
      ),
    ]);
    const conversation: ConversationTurn[] = [
      { role: 'user', text: 'How do I add a custom domain?' },
      {
        role: 'assistant',
        text: 'Add the custom domain in the domain settings: type the domain and add it. [1]',
      },
      { role: 'user', text: 'how long does it take?' },
    ];
    const retrieval = retrieve(domain, {
      conversation,
      retrievalPageSize: 5,
      citedPaths: ['/guides/custom-domain'],
    });
    expect(retrieval.passages.map((passage) => passage.url)).toContain('/guides/custom-domain#timing');
    const { text } = await ask(conversation, ['/guides/custom-domain'], domain);
    expect(text).toContain('48 hours');
    expect(text).not.toContain('type the domain and add it');
  });

  it('brings in the section that answers though the follow-up ranks it third on the cited page', async () => {
    const keypad = DocsIndex.build([
      {
        path: 'telephony/dtmf.mdx',
        content: page(
          'Keypad input',
          '## Overview\n\nThe aggregator collects keypad digits from the caller and sends them to the LLM.\n\n' +
            '## Keypad entries\n\n| Key | Value |\n| --- | --- |\n| digits | 0 to 9 |\n| pound | # |\n| star | * |\n\n' +
            'Each key the caller types arrives as one entry: digits, pound or star. Pound is typed like the digits.\n\n' +
            '## Termination digit\n\nPressing pound ends the entry: pound sends the digits typed before it at once.\n\n' +
            '## Timeout\n\nThe timeout starts after each key and restarts with the next one. It lasts two ' +
            'seconds unless the constructor sets another value, and it applies to every call. When it ' +
            'ends, the entry so far is sent anyway: a caller who enters digits and never presses pound is still heard.',
        ),
      },
      ...otherPages(['Builds', 'Previews', 'Search', 'Exports']),
    ]);
    const firstTurn: ConversationTurn = {
      role: 'user',
      text: 'How does the keypad input aggregator work?',
    };
    const first = await ask([firstTurn], undefined, keypad);
    expect(first.sources[0]).toBe('/telephony/dtmf');
    const followUp = 'what if they type the digits but never press pound?';
    const conversation: ConversationTurn[] = [
      firstTurn,
      { role: 'assistant', text: first.text },
      { role: 'user', text: followUp },
    ];
    // Searched alone within the cited page, the follow-up's words rank two sections above the one that answers.
    const within = keypad.search(followUp, { limit: 5, maxPerPage: 5, withinPaths: ['/telephony/dtmf'] });
    expect(within.findIndex((hit) => hit.heading === 'Timeout')).toBeGreaterThanOrEqual(2);
    const second = await ask(conversation, first.sources, keypad);
    expect(second.sources[0]).toBe('/telephony/dtmf');
    expect(second.text).toContain('a caller who enters digits and never presses pound is still heard');
  });

  it('shows again what the first answer said when the follow-up asks exactly about it', async () => {
    const cli = DocsIndex.build([
      {
        path: 'cli/install.mdx',
        content: page(
          'Install the CLI',
          '## Prerequisites\n\n- To install the CLI, use Node.js v20.17.0 or later (LTS versions recommended)\n\n' +
            '## Install\n\nInstall the CLI with npm: `npm i -g mint`.\n\n' +
            '## Update\n\nUpdate the CLI to the latest version with `mint update`.',
        ),
      },
      ...otherPages(['Builds', 'Previews', 'Search']),
    ]);
    const answerFrom = async (conversation: ConversationTurn[], citedPaths?: string[]) =>
      (await ask(conversation, citedPaths, cli)).text;
    const thread = async (followUp: string) => {
      const firstTurn: ConversationTurn = {
        role: 'user',
        text: 'What are the prerequisites to install the CLI?',
      };
      const first = await answerFrom([firstTurn]);
      const conversation: ConversationTurn[] = [
        firstTurn,
        { role: 'assistant', text: first },
        { role: 'user', text: followUp },
      ];
      return { first, text: await answerFrom(conversation, ['/cli/install']) };
    };
    const asked = await thread('which Node version do I need?');
    expect(asked.first).toContain('v20.17.0');
    expect(asked.text).toContain('v20.17.0');
    // A follow-up about something else still gets what is new, not the prerequisites again.
    const other = await thread('and how do I update it later?');
    expect(other.text).toContain('mint update');
    expect(other.text).not.toContain('v20.17.0');
  });

  it('reads a full question in a thread as a question of its own, a short one as a follow-up', () => {
    const thread = (text: string) =>
      retrieve(index, {
        conversation: [
          { role: 'user', text: 'What are interruptions?' },
          {
            role: 'assistant',
            text: 'When the user speaks over the bot, the interruption stops the bot. [1]',
          },
          { role: 'user', text },
        ],
        retrievalPageSize: 5,
        citedPaths: ['/guides/interruptions'],
      });
    // "them" points back: searched with the question before it, judged as part of the thread.
    const turnOff = thread('can I turn them off?');
    expect(turnOff.followUp).toBe(true);
    expect(turnOff.query).toContain('What are interruptions?');
    // A question that says what it is about is searched alone, and judged as a first question.
    const billing = thread('Where do I change the billing settings for my account?');
    expect(billing.followUp).toBe(false);
    expect(billing.query).toBe('Where do I change the billing settings for my account?');
    expect(billing.passages[0]?.urlPath).toBe('/settings/page-0');
    // Short, but half of its words are on no page: not about the docs, so judged on its own.
    const hamlet = thread('what is the plot of Hamlet');
    expect(hamlet.followUp).toBe(false);
    expect(hamlet.query).toBe('what is the plot of Hamlet');
    // One word of the reader's own ("strangers") among words the docs hold still leans on the thread.
    expect(thread('can strangers still cancel interruptions for the user?').followUp).toBe(true);
    // So does a message of three words or fewer that points back, whatever its words.
    expect(thread('how long does it take?').followUp).toBe(true);
    // A short message that points nowhere and names a page's subject is a question of its own.
    const muting = thread('Input muting');
    expect(muting.followUp).toBe(false);
    expect(muting.passages[0]?.urlPath).toBe('/guides/muting');
    // One that the docs do not answer alone takes its subject from the thread.
    expect(thread('minimum words?').followUp).toBe(true);
    // One word is a subject of its own only when a page says it is about it: "minimum" is in a
    // body, "muting" in a title.
    expect(thread('minimum?').followUp).toBe(true);
    expect(thread('muting?').followUp).toBe(false);
  });

  it('brings in the accordion that answers, though it links to the heading it sits in', async () => {
    const site = DocsIndex.build([
      {
        path: 'guides/domains.mdx',
        content: page(
          'Custom domains',
          '## Custom domain\n\nAdd your custom domain in the domain settings of the dashboard.\n\n' +
            '<Accordion title="Add a custom domain in the dashboard">\nOpen the dashboard, add the custom domain.\n</Accordion>\n' +
            '<Accordion title="Verify the custom domain">\nAdd a TXT record for the custom domain.\n</Accordion>\n' +
            '<Accordion title="Timing">\nDNS changes take up to 48 hours to propagate.\n</Accordion>\n' +
            '<Accordion title="Certificates">\nA TLS certificate is issued for the domain.\n</Accordion>\n',
        ),
      },
      ...otherPages(['Billing', 'Fonts', 'Themes'], 'changes take effect at once, they take no time.'),
    ]);
    const first = await ask(
      [{ role: 'user', text: 'How do I add a custom domain in the dashboard?' }],
      undefined,
      site,
    );
    expect(first.sources[0]).toBe('/guides/domains');
    const second = await ask(
      [
        { role: 'user', text: 'How do I add a custom domain in the dashboard?' },
        { role: 'assistant', text: first.text },
        { role: 'user', text: 'how long does it take?' },
      ],
      first.sources,
      site,
    );
    expect(second.text).toContain('48 hours');
    site.close();
  });

  it('declines an off-topic question asked after a docs answer', async () => {
    const first = await ask([
      { role: 'user', text: 'How do interruptions work when the user speaks over the bot?' },
    ]);
    expect(first.sources[0]).toBe('/guides/interruptions');
    const conversation: ConversationTurn[] = [
      { role: 'user', text: 'How do interruptions work when the user speaks over the bot?' },
      { role: 'assistant', text: first.text },
      { role: 'user', text: 'what is the plot of Hamlet' },
    ];
    const answer = await ask(conversation, first.sources);
    expect(answer.sources).toEqual([]);
  });
});
