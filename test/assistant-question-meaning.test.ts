import { describe, expect, it } from 'vitest';
import { QuestionMeaning } from '../src/assistant/answer/question-meaning.js';

describe('how much of a question a sentence holds', () => {
  const none = new Set<string>();

  it('finds a question word in its other forms, plurals in -ies included', () => {
    expect(new QuestionMeaning('webhook policy').score('Both policies apply.', none)).toBeGreaterThan(0);
    expect(new QuestionMeaning('webhook policies').score('One policy applies.', none)).toBeGreaterThan(0);
    expect(
      new QuestionMeaning('deploying previews').score('Each branch deploys a preview.', none),
    ).toBeGreaterThan(0);
  });

  it('scores a sentence without any of the question words zero', () => {
    const meaning = new QuestionMeaning('Which retry policy applies to webhooks?');
    expect(meaning.score('Themes change the colours of the site.', none)).toBe(0);
  });

  it('matches phrases and CJK words inside longer text', () => {
    expect(
      new QuestionMeaning('how do I set an environment variable').score(
        'Every ENVIRONMENT VARIABLE is secret.',
        none,
      ),
    ).toBeGreaterThan(0);
    expect(new QuestionMeaning('如何添加自定义域名').score('在设置中添加自定义域名。', none)).toBeGreaterThan(
      0,
    );
  });

  it('counts a word the page title already says for less', () => {
    const meaning = new QuestionMeaning('how long does a custom domain take');
    const title = meaning.contextOf('Custom domain');
    expect(meaning.score('A custom domain takes a day.', title)).toBeLessThan(
      meaning.score('A custom domain takes a day.', none),
    );
  });

  it('weighs, among the units an answer chooses from, a word few of them hold over one they all hold', () => {
    const units = [
      'A deployment starts on every push.',
      'A deployment takes a minute.',
      'A deployment can be retried.',
      'Renovate pull requests start a deployment too.',
    ];
    const meaning = new QuestionMeaning('renovate deployment').weighedBy(units);
    // Alone, each word counts as much; weighed, the word one unit holds counts more.
    expect(new QuestionMeaning('renovate deployment').score('Renovate runs.', none)).toBe(
      new QuestionMeaning('renovate deployment').score('A deployment runs.', none),
    );
    expect(meaning.score('Renovate runs.', none)).toBeGreaterThan(meaning.score('A deployment runs.', none));
    expect(meaning.ownWeight).toBeGreaterThan(new QuestionMeaning('renovate deployment').ownWeight);
  });
});
