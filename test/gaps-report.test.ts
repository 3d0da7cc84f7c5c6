import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gap, GapsReport } from '../src/protocol/feedback.js';
import { addOwnDocsProject, ask, OWN_DOCS_DIR, rate } from './helpers/reader-feedback.js';
import { COVERED, OFF_TOPIC, UNCOVERED } from './helpers/reader-questions.js';
import { startTestService, type TestService } from './helpers/service.js';

/** Readers who ask each covered question, and how many of them rate the answer up. */
const COVERED_READERS = 8;
const COVERED_RATED_UP = 5;
/** A covered question whose answer three readers rate down, with a comment. */
const RATED_DOWN = 'How do I poll a job until it is completed?';

describe('the gaps report over real answers from docwright’s own docs', () => {
  let t: TestService;
  let adminKey: string;
  let report: GapsReport;
  let asked = 0;

  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    const keys = await addOwnDocsProject(t);
    adminKey = keys.adminKey;
    const question = async (text: string, fp: string) => {
      const answer = await ask(t, 'own', keys.assistantKey, text, fp);
      expect(answer.status).toBe(200);
      asked += 1;
      return answer;
    };
    const rated = async (
      answer: { threadId: string; messageId: string },
      rating: string,
      comment?: string,
    ) => {
      const response = await rate(t, 'own', keys.assistantKey, { ...answer, rating, comment });
      expect(response.status).toBe(200);
    };
    for (const [topic, wordings] of Object.entries(COVERED)) {
      for (const [w, wording] of wordings.entries()) {
        for (let reader = 0; reader < COVERED_READERS; reader += 1) {
          const answer = await question(wording, `covered-${topic}-${w}-${reader}`);
          if (wording === RATED_DOWN && reader < 3)
            await rated(answer, 'down', 'The example never says how often to poll.');
          else if (reader < COVERED_RATED_UP) await rated(answer, 'up');
        }
      }
    }
    for (const topic of UNCOVERED) {
      for (let reader = 0; reader < topic.readers; reader += 1) {
        const wording = topic.wordings[reader % topic.wordings.length]!;
        const answer = await question(wording, `${topic.topic}-${reader}`);
        if (reader % 4 === 1) await rated(answer, 'down', `Nothing about ${topic.topic} in the docs.`);
      }
    }
    for (const [index, text] of OFF_TOPIC.entries()) {
      await question(text, `off-${index}-a`);
      await question(text, `off-${index}-b`);
    }
    const response = await t.request('GET', '/v2/agent/own/gaps?since=30d', { key: adminKey });
    expect(response.status).toBe(200);
    report = response.body as GapsReport;
  }, 120_000);
  afterAll(() => t.cleanup());

  const mentions = (gap: Gap, word: string) =>
    [gap.title, ...gap.examples].some((text) => text.toLowerCase().includes(word));

  it('asks about topics docs/ never names (a page that names one makes it covered)', async () => {
    const pages = await fs.readdir(OWN_DOCS_DIR, { recursive: true });
    const text = (
      await Promise.all(
        pages
          .filter((page) => page.endsWith('.mdx'))
          .map((page) => fs.readFile(path.join(OWN_DOCS_DIR, page), 'utf8')),
      )
    )
      .join('\n')
      .toLowerCase();
    for (const topic of UNCOVERED) expect(text, topic.topic).not.toContain(topic.topic);
  });

  it('reads every question asked', () => {
    expect(asked).toBeGreaterThan(200);
    expect(report.questions).toBe(asked);
  });

  it('ranks the uncovered topics first, by readers, each in one group with all its wordings', () => {
    for (const [rank, topic] of UNCOVERED.entries()) {
      const gap = report.gaps[rank]!;
      expect(mentions(gap, topic.topic), `${topic.topic} at rank ${rank + 1}: ${gap.title}`).toBe(true);
      expect(gap.readers).toBe(topic.readers);
      expect(gap.count).toBe(topic.readers);
      expect(gap.examples).toHaveLength(3);
      expect(new Set(gap.examples.map((example) => example.toLowerCase())).size).toBe(3);
      expect(gap.comments).toContain(`Nothing about ${topic.topic} in the docs.`);
      expect(gap.closestPages.length).toBeGreaterThan(0);
      expect(gap.firstSeen <= gap.lastSeen).toBe(true);
      // No other group, gap or off-topic, holds a question about it.
      const elsewhere = [...report.gaps, ...report.offTopic].filter(
        (other) => other !== gap && mentions(other, topic.topic),
      );
      expect(elsewhere).toEqual([]);
    }
  });

  it('keeps covered questions rated up out, and lists the rated-down one with its comment', () => {
    const listed = [...report.gaps, ...report.offTopic].flatMap((gap) => gap.examples);
    for (const wording of Object.values(COVERED).flat()) {
      if (wording !== RATED_DOWN) expect(listed).not.toContain(wording);
    }
    const down = report.gaps.find((gap) => gap.examples.includes(RATED_DOWN));
    expect(down).toMatchObject({ readers: 3, count: 3, ratedDown: 3 });
    expect(down!.comments).toEqual(['The example never says how often to poll.']);
  });

  it('keeps off-topic questions apart from the gaps', () => {
    const offTopic = report.offTopic.flatMap((gap) => gap.examples);
    const gaps = report.gaps.flatMap((gap) => gap.examples);
    for (const text of OFF_TOPIC) {
      expect(gaps).not.toContain(text);
      expect(offTopic).toContain(text);
    }
    for (const gap of report.offTopic) expect(gap.readers).toBe(2);
  });

  it('gives each gap the same id on every call, and takes a period', async () => {
    const again = (await t.request('GET', '/v2/agent/own/gaps', { key: adminKey })).body as GapsReport;
    expect(again.gaps.map((gap) => gap.id)).toEqual(report.gaps.map((gap) => gap.id));
    expect(new Set(report.gaps.map((gap) => gap.id)).size).toBe(report.gaps.length);
    const lastHour = (await t.request('GET', '/v2/agent/own/gaps?since=1h', { key: adminKey }))
      .body as GapsReport;
    expect(lastHour.questions).toBe(asked);
  });

  it('refuses a bad period, a wrong key and another project’s key', async () => {
    const bad = await t.request('GET', '/v2/agent/own/gaps?since=forever', { key: adminKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/since must be a number of days or hours/);
    expect((await t.request('GET', '/v2/agent/own/gaps', { key: t.adminKey })).status).toBe(403);
    expect((await t.request('GET', '/v2/agent/own/gaps', { key: t.assistantKey })).status).toBe(403);
    expect((await t.request('GET', '/v2/agent/own/gaps', { key: null })).status).toBe(401);
  });
});
