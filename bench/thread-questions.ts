/**
 * Questions asked in a thread, on two real docs sites:
 * `npx tsx bench/thread-questions.ts [--fresh|--fresh8|--fresh9|--fresh10]`.
 *
 * A reader of the docs widget keeps one thread, so the questions after the first are not all
 * follow-ups. Three measures, each asked the way the assistant asks it in a thread (the earlier
 * question and answer in the conversation, the pages that answer cited as the thread's cited
 * pages):
 * - follow-ups (bench/queries/follow-ups*.json): does the second answer cite an expected page and
 *   hold the text that answers it;
 * - reader questions asked after an unrelated reader question of the same site: Hit@1, Hit@5 and
 *   MRR@10 of the pages the answer cites, beside the same questions asked alone;
 * - off-topic questions asked after a reader question: how many are declined, beside alone.
 *
 * The pairs are fixed (question i follows question (7i + 13) mod n, skipped when the two share an
 * expected page). Without a flag, every tuning set is pooled (with the follow-ups of
 * bench/queries/follow-ups-tuning2.json); `--fresh`, `--fresh8`, `--fresh9` and `--fresh10` measure
 * sets never tuned on, and print no question: `--fresh` the fifth fresh sets and the follow-ups of
 * the fifth and sixth fresh sets, `--fresh8` to `--fresh10` the eighth, ninth or tenth fresh sets
 * and the sixth set's follow-ups.
 */
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { retrieve } from '../src/assistant/retrieve.js';
import type { DocsIndex } from '../src/docs/docs-index.js';
import type { ConversationTurn } from '../src/protocol/assistant.js';
import {
  SITES,
  followUps,
  half,
  TUNING_SETS,
  loadSiteIndex,
  moreFollowUps,
  offTopicQuestions,
  offTopicTuningQuestions,
  rankScores,
  readerQuestions,
  type FollowUpConversation,
  type Half,
  type RankScores,
  type ReaderQuestion,
} from './reader-questions.js';
import { machineDescription } from './retrieval-corpus.js';

const TUNING = TUNING_SETS;
const answerer = new ExtractiveAnswerer();
const pathOf = (url: string) => url.replace(/#.*$/, '');

async function ask(index: DocsIndex, conversation: ConversationTurn[], citedPaths?: string[]) {
  const retrieval = retrieve(index, { conversation, retrievalPageSize: 5, citedPaths });
  const answer = answerer.answer({ conversation, ...retrieval, signal: new AbortController().signal });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { sources: answer.sources.map((source) => pathOf(source.url)), text };
}

/** `question` asked after `earlier` was asked and answered, in one thread. */
async function askAfter(index: DocsIndex, earlier: string, question: string) {
  const first = await ask(index, [{ role: 'user', text: earlier }]);
  return ask(
    index,
    [
      { role: 'user', text: earlier },
      { role: 'assistant', text: first.text },
      { role: 'user', text: question },
    ],
    first.sources,
  );
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const scores = (value: RankScores) =>
  `${percent(value.hit1)} | ${percent(value.hit5)} | ${value.mrr.toFixed(3)}`;

async function main(): Promise<void> {
  const untuned: Half =
    (['fresh10', 'fresh9', 'fresh8'] as const).find((flag) => process.argv.includes(`--${flag}`)) ?? 'fresh5';
  const fresh = process.argv.includes('--fresh') || untuned !== 'fresh5';
  const sets: Half[] = fresh ? [untuned] : TUNING;
  console.log(
    `Questions in a thread, ${fresh ? 'the sets never tuned on' : 'every tuning set pooled'}. Machine: ${machineDescription()}\n`,
  );
  const readerLines = ['| site | questions | asked | Hit@1 | Hit@5 | MRR@10 |', '|---|---|---|---|---|---|'];
  const offTopicLines = ['| site | questions | declined alone | declined in a thread |', '|---|---|---|---|'];
  const followUpLines = [
    '| site | conversations | cite an expected page | add the answer |',
    '|---|---|---|---|',
  ];
  for (const site of SITES) {
    const index = await loadSiteIndex(site);
    if (!index) continue;
    const questions: ReaderQuestion[] = sets.flatMap((which) => half(readerQuestions(site, which), which));
    const paired = questions.filter((_, position) => !sharesPage(questions, position));
    const alone: string[][] = [];
    const inThread: string[][] = [];
    for (const question of paired) {
      const position = questions.indexOf(question);
      alone.push((await ask(index, [{ role: 'user', text: question.query }])).sources);
      inThread.push(
        (await askAfter(index, questions[earlierOf(position, questions.length)]!.query, question.query))
          .sources,
      );
    }
    readerLines.push(`| ${site} | ${paired.length} | alone | ${scores(rankScores(paired, alone))} |`);
    readerLines.push(
      `| ${site} | ${paired.length} | after another question | ${scores(rankScores(paired, inThread))} |`,
    );

    const offTopic = fresh
      ? offTopicQuestions(untuned)
      : [
          ...offTopicTuningQuestions(),
          ...offTopicQuestions(),
          ...TUNING.filter((which) => which.startsWith('fresh')).flatMap((which) => offTopicQuestions(which)),
        ];
    let declinedAlone = 0;
    let declinedInThread = 0;
    for (const [position, question] of offTopic.entries()) {
      if ((await ask(index, [{ role: 'user', text: question }])).sources.length === 0) declinedAlone += 1;
      const earlier = questions[(position * 11 + 5) % questions.length]!.query;
      if ((await askAfter(index, earlier, question)).sources.length === 0) declinedInThread += 1;
    }
    offTopicLines.push(
      `| ${site} | ${offTopic.length} | ${percent(declinedAlone / offTopic.length)} | ${percent(declinedInThread / offTopic.length)} |`,
    );

    const followUpSets: [string, FollowUpConversation[]][] = fresh
      ? [
          ...(untuned === 'fresh5'
            ? ([['fifth fresh set', followUps('fresh5')]] as [string, FollowUpConversation[]][])
            : []),
          ['sixth fresh set', moreFollowUps('fresh6')],
        ]
      : [
          [
            'tuning sets',
            [
              ...followUps(),
              ...TUNING.filter((which) => which.startsWith('fresh')).flatMap((which) => followUps(which)),
              ...moreFollowUps('tuning2'),
            ],
          ],
        ];
    for (const [name, all] of followUpSets) {
      const conversations = all.filter((conversation) => conversation.site === site);
      let cites = 0;
      let adds = 0;
      for (const conversation of conversations) {
        const second = await askAfter(index, conversation.turns[0]!, conversation.turns[1]!);
        if (second.sources.some((source) => conversation.expected.includes(source))) cites += 1;
        if (second.text.toLowerCase().includes(conversation.answerContains.toLowerCase())) adds += 1;
      }
      followUpLines.push(`| ${site}, ${name} | ${conversations.length} | ${cites} | ${adds} |`);
    }
    index.close();
  }
  console.log('Reader questions, the pages the answer cites:\n');
  console.log(readerLines.join('\n'));
  console.log('\nOff-topic questions, declined (no page cited):\n');
  console.log(offTopicLines.join('\n'));
  console.log('\nFollow-ups:\n');
  console.log(followUpLines.join('\n'));
}

/** The question asked before question `position` (of `count`): fixed, spread over the set. */
function earlierOf(position: number, count: number): number {
  return (position * 7 + 13) % count;
}

/** Whether the question at `position` and the one asked before it share an expected page. */
function sharesPage(questions: ReaderQuestion[], position: number): boolean {
  const earlier = questions[earlierOf(position, questions.length)]!;
  return (
    earlier === questions[position] ||
    earlier.expected.some((page) => questions[position]!.expected.includes(page))
  );
}

await main();
