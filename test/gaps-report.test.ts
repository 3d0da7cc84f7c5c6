/**
 * The gaps report over real answers: readers' questions on three docs sites (docwright's own docs,
 * and two real sites read from beside the repository when they are there; without them, the test
 * says so and is skipped), asked through the assistant route and rated through the feedback route.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGap } from '../src/assistant/gaps/index.js';
import type { Gap, GapsReport } from '../src/protocol/feedback.js';
import { addSiteProject, ask, OWN_DOCS_DIR, rate } from './helpers/reader-feedback.js';
import { MINTLIFY, OWN_DOCS, PIPECAT, type SiteQuestions } from './helpers/reader-questions.js';
import { startTestService, type TestService } from './helpers/service.js';

const SITES: { id: string; name: string; folder: string; questions: SiteQuestions }[] = [
  { id: 'own', name: 'docwright’s own docs', folder: OWN_DOCS_DIR, questions: OWN_DOCS },
  {
    id: 'mintlify',
    name: 'the Mintlify docs',
    folder: path.resolve('../shared/corpora/mintlify-docs'),
    questions: MINTLIFY,
  },
  {
    id: 'pipecat',
    name: 'the Pipecat docs',
    folder: path.resolve('../shared/corpora/pipecat-docs'),
    questions: PIPECAT,
  },
];

/** Readers who ask each covered question, and how many of them rate the answer up. */
const COVERED_READERS = 8;
const COVERED_RATED_UP = 5;
/** What the readers who rate the site's rated-down question down say. */
const RATED_DOWN_COMMENT = 'The answer leaves out the step I needed.';

for (const site of SITES) {
  const missing = !existsSync(site.folder);
  describe.skipIf(missing)(
    missing
      ? `the gaps report over ${site.name} (skipped: no docs at ${site.folder})`
      : `the gaps report over real answers from ${site.name}`,
    () => {
      const { covered, ratedDown, uncovered, offTopic } = site.questions;
      let t: TestService;
      let adminKey: string;
      let report: GapsReport;
      let asked = 0;

      beforeAll(async () => {
        t = await startTestService({ startWorker: false });
        const keys = await addSiteProject(t, site.id, site.folder);
        adminKey = keys.adminKey;
        const question = async (text: string, fp: string) => {
          const answer = await ask(t, site.id, keys.assistantKey, text, fp);
          expect(answer.status).toBe(200);
          asked += 1;
          return answer;
        };
        const rated = async (
          answer: { threadId: string; messageId: string },
          rating: string,
          comment?: string,
        ) => {
          const response = await rate(t, site.id, keys.assistantKey, { ...answer, rating, comment });
          expect(response.status).toBe(200);
        };
        for (const [topic, wordings] of Object.entries(covered)) {
          for (const [w, wording] of wordings.entries()) {
            for (let reader = 0; reader < COVERED_READERS; reader += 1) {
              const answer = await question(wording, `covered-${topic}-${w}-${reader}`);
              if (wording === ratedDown && reader < 3) await rated(answer, 'down', RATED_DOWN_COMMENT);
              else if (reader < COVERED_RATED_UP) await rated(answer, 'up');
            }
          }
        }
        for (const topic of uncovered) {
          for (let reader = 0; reader < topic.readers; reader += 1) {
            const wording = topic.wordings[reader % topic.wordings.length]!;
            const answer = await question(wording, `${topic.topic}-${reader}`);
            if (reader % 4 === 1) await rated(answer, 'down', `Nothing about ${topic.topic} in the docs.`);
          }
        }
        for (const [index, text] of offTopic.entries()) {
          await question(text, `off-${index}-a`);
          await question(text, `off-${index}-b`);
        }
        const response = await t.request('GET', `/v2/agent/${site.id}/gaps?since=30d`, { key: adminKey });
        expect(response.status).toBe(200);
        report = response.body as GapsReport;
      }, 180_000);
      afterAll(() => t?.cleanup());

      const mentions = (gap: Gap, word: string) =>
        [gap.title, ...gap.examples].some((text) => text.toLowerCase().includes(word));

      it('asks about topics the site never names (a page that names one makes it covered)', async () => {
        const files = (await fs.readdir(site.folder, { recursive: true })).filter((file) =>
          /\.(mdx?|json)$/.test(file),
        );
        const text = (
          await Promise.all(files.map((file) => fs.readFile(path.join(site.folder, file), 'utf8')))
        )
          .join('\n')
          .toLowerCase();
        for (const topic of uncovered) expect(text, topic.topic).not.toContain(topic.topic);
      });

      it('reads every question asked', () => {
        expect(asked).toBeGreaterThan(150);
        expect(report.questions).toBe(asked);
      });

      it('ranks the uncovered topics first, by readers, each in one group with all its wordings', async () => {
        for (const [rank, topic] of uncovered.entries()) {
          const gap = report.gaps[rank]!;
          expect(mentions(gap, topic.topic), `${topic.topic} at rank ${rank + 1}: ${gap.title}`).toBe(true);
          expect(gap.readers).toBe(topic.readers);
          expect(gap.count).toBe(topic.readers);
          expect(gap.ratedDown).toBe(Math.floor((topic.readers + 2) / 4));
          expect(gap.declined + gap.lowSupport).toBe(topic.readers);
          expect(gap.examples).toHaveLength(3);
          expect(new Set(gap.examples.map((example) => example.toLowerCase())).size).toBe(3);
          expect(gap.comments).toEqual([`Nothing about ${topic.topic} in the docs.`]);
          expect(gap.closestPages.length).toBeGreaterThan(0);
          expect(gap.firstSeen <= gap.lastSeen).toBe(true);
          // Every wording of the topic is in this group, and nothing else.
          const whole = await readGap(t.service.store, site.id, gap.id, '30d');
          expect(new Set(whole?.questions)).toEqual(new Set(topic.wordings));
          // No other group, gap or off-topic, holds a question about it.
          const elsewhere = [...report.gaps, ...report.offTopic].filter(
            (other) => other !== gap && mentions(other, topic.topic),
          );
          expect(elsewhere).toEqual([]);
        }
      });

      it('keeps covered questions rated up out, and lists the rated-down one with its comment', () => {
        const listed = [...report.gaps, ...report.offTopic].flatMap((gap) => gap.examples);
        for (const wording of Object.values(covered).flat()) {
          if (wording !== ratedDown) expect(listed).not.toContain(wording);
        }
        const down = report.gaps.find((gap) => gap.examples.includes(ratedDown));
        expect(down).toMatchObject({ readers: 3, count: 3, ratedDown: 3 });
        expect(down!.comments).toEqual([RATED_DOWN_COMMENT]);
        expect(report.gaps.indexOf(down!)).toBe(uncovered.length);
      });

      it('keeps off-topic questions apart from the gaps', () => {
        const offTopicListed = report.offTopic.flatMap((gap) => gap.examples);
        const gaps = report.gaps.flatMap((gap) => gap.examples);
        for (const text of offTopic) {
          expect(gaps).not.toContain(text);
          expect(offTopicListed).toContain(text);
        }
        expect(offTopicListed.filter((text) => !offTopic.includes(text))).toEqual([]);
        for (const gap of report.offTopic) expect(gap).toMatchObject({ readers: 2, count: 2, declined: 2 });
        // The uncovered topics and the rated-down question are all there is.
        expect(report.gaps).toHaveLength(uncovered.length + 1);
      });

      it('gives each gap the same id on every call, and takes a period', async () => {
        const again = (await t.request('GET', `/v2/agent/${site.id}/gaps`, { key: adminKey }))
          .body as GapsReport;
        expect(again.gaps.map((gap) => gap.id)).toEqual(report.gaps.map((gap) => gap.id));
        expect(new Set(report.gaps.map((gap) => gap.id)).size).toBe(report.gaps.length);
        const lastHour = (await t.request('GET', `/v2/agent/${site.id}/gaps?since=1h`, { key: adminKey }))
          .body as GapsReport;
        expect(lastHour.questions).toBe(asked);
      });

      it.runIf(site.id === 'own')('refuses a bad period, a wrong key and another project’s key', async () => {
        const bad = await t.request('GET', '/v2/agent/own/gaps?since=forever', { key: adminKey });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toMatch(/since must be a number of days or hours/);
        expect((await t.request('GET', '/v2/agent/own/gaps', { key: t.adminKey })).status).toBe(403);
        expect((await t.request('GET', '/v2/agent/own/gaps', { key: t.assistantKey })).status).toBe(403);
        expect((await t.request('GET', '/v2/agent/own/gaps', { key: null })).status).toBe(401);
      });
    },
  );
}
