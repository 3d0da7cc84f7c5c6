/**
 * What a change exposes beyond the names it writes: a default given as an expression, the option a
 * default constant is named after, configuration fields however plain their names, string values
 * a page quotes, environment variables, packages named by nested folders, and option names that
 * sibling pages each document for themselves.
 */
import { describe, expect, it } from 'vitest';
import { rankImpact } from '../src/impact/analyze-impact.js';
import { changeFeatures } from '../src/impact/change-judge.js';
import { diffNames } from '../src/impact/diff-names.js';
import { literalEvidence } from '../src/impact/literal-evidence.js';
import { parseUnifiedDiff } from '../src/impact/parse-unified-diff.js';
import { filePatch } from './helpers/file-patch.js';

function namesOf(patch: string) {
  return diffNames(parseUnifiedDiff(patch).files);
}

describe('changed defaults', () => {
  it('reads a default written as an expression, given to the name before its Go type', () => {
    const names = namesOf(
      filePatch('pkg/config/middlewares.go', [
        '   // RetryDefaultMaxRequestBodyBytes is the Retry.MaxRequestBodyBytes option default value.',
        '-  RetryDefaultMaxRequestBodyBytes int64 = -1',
        '+  RetryDefaultMaxRequestBodyBytes int64 = 2 * 1024 * 1024 // 2 MB',
      ]),
    );
    const constant = names.find((name) => name.name === 'RetryDefaultMaxRequestBodyBytes');
    expect(constant).toMatchObject({ change: 'default-changed', oldValue: '-1', newValue: '2*1024*1024' });
    // The type owns no default.
    expect(names.find((name) => name.name === 'int64')?.change).not.toBe('default-changed');
    // Pages write the option the constant is named after.
    expect(names.find((name) => name.key === 'max request body bytes')).toMatchObject({
      name: 'maxRequestBodyBytes',
      change: 'default-changed',
      oldValue: '-1',
    });
  });

  it('gives a C or Java default to the name after its type', () => {
    const names = namesOf(
      filePatch('src/Retry.java', ['-    int maxRetries = 3;', '+    int maxRetries = 5;']),
    );
    expect(names.find((name) => name.name === 'maxRetries')).toMatchObject({
      change: 'default-changed',
      oldValue: '3',
      newValue: '5',
    });
  });
});

describe('configuration fields', () => {
  it('takes a tagged Go struct field, a typed optional property and a pydantic field as options', () => {
    const names = namesOf(
      [
        filePatch('pkg/provider/kubernetes/gateway/kubernetes.go', [
          '   type Provider struct {',
          '+  QPS   int `description:"Maximum QPS to the API server." json:"qps,omitempty"`',
          '+  Burst int `description:"Maximum burst of requests." json:"burst,omitempty"`',
          '   }',
        ]),
        filePatch('src/node/config.ts', ['   export interface BuildOptions {', '+    base?: string', '   }']),
        filePatch('app/settings.py', ['   class Settings(BaseModel):', '+    port: int = Field(8080)']),
        filePatch('lib/count.js', ['   function count (list) {', '+    let total = 0']),
      ].join('\n'),
    );
    const option = (name: string) => names.find((entry) => entry.name === name)?.option;
    expect([option('QPS'), option('Burst'), option('base'), option('port')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(option('total')).toBe(false);
  });

  it('counts new configuration fields among the new public names the judge reads', () => {
    const diff = parseUnifiedDiff(
      filePatch('pkg/provider/kubernetes/gateway/kubernetes.go', [
        '   type Provider struct {',
        '+  QPS   int `description:"Maximum QPS to the API server." json:"qps,omitempty"`',
        '   }',
      ]),
    );
    const features = changeFeatures(diffNames(diff.files), diff.files, [], []);
    expect(features['new-public']).toBeGreaterThan(0);
  });

  it('marks a change that reads an environment variable', () => {
    const diff = parseUnifiedDiff(
      filePatch('lib/proxy.js', [
        '-    const proxy = process.env.HTTP_PROXY ?? process.env.http_proxy',
        '+    const proxy = process.env.http_proxy ?? process.env.HTTP_PROXY',
      ]),
    );
    expect(changeFeatures(diffNames(diff.files), diff.files, [], []).environment).toBe(1);
    const plain = parseUnifiedDiff(filePatch('lib/sum.js', ['-  return a + b', '+  return b + a']));
    expect(changeFeatures(diffNames(plain.files), plain.files, [], []).environment).toBe(0);
  });
});

describe('quoted values', () => {
  const pages = [
    {
      path: 'how-to/self-hosting.md',
      text: '# Self-hosting\n\nBy default the page loads <https://cdn.example.com/redoc@next/redoc.js>.\n',
    },
    { path: 'index.md', text: '# Acme\n\nImport it with `./lib/warnings.js`.\n' },
  ];

  it('sends a value the code no longer has to the page that quotes it', () => {
    const diff = parseUnifiedDiff(
      filePatch('acme/docs.py', [
        '         ),',
        '-    ] = "https://cdn.example.com/redoc@next/redoc.js",',
        '+    ] = "https://cdn.example.com/redoc@2/redoc.js",',
      ]),
    );
    const evidence = literalEvidence(diff.files, pages);
    expect([...evidence.keys()]).toEqual([0]);
    expect(evidence.get(0)![0]).toMatchObject({
      kind: 'name',
      change: 'default-changed',
      oldValue: "'https://cdn.example.com/redoc@next/redoc.js'",
      newValue: "'https://cdn.example.com/redoc@2/redoc.js'",
      pageLine: { line: 3 },
    });
  });

  it('ignores import paths and values that only moved', () => {
    const diff = parseUnifiedDiff(
      [
        filePatch('lib/a.js', [
          "-const { warn } = require('./lib/warnings.js')",
          "-const url = 'https://cdn.example.com/redoc@next/redoc.js'",
        ]),
        filePatch('lib/b.js', ["+const url = 'https://cdn.example.com/redoc@next/redoc.js'"]),
      ].join('\n'),
    );
    expect(literalEvidence(diff.files, pages).size).toBe(0);
  });
});

describe('pages named by folders, and members sibling pages share', () => {
  it('takes nested package folders as one name (`kubernetes/gateway/` and `kubernetes-gateway.md`)', () => {
    const ranked = rankImpact({
      diff: filePatch('pkg/provider/kubernetes/gateway/client.go', [
        '-func newClient(endpoint string) (*clientWrapper, error) {',
        '+func newClient(endpoint string, qps int) (*clientWrapper, error) {',
      ]),
      pages: [
        {
          path: 'providers/kubernetes-gateway.md',
          text: '# Kubernetes Gateway\n\nThe Gateway API provider.\n',
        },
        { path: 'providers/docker.md', text: '# Docker\n\nThe Docker provider.\n' },
      ],
    });
    const page = ranked.pages.find((entry) => entry.path === 'providers/kubernetes-gateway.md');
    expect(page?.evidence.some((item) => item.kind === 'file-name')).toBe(true);
  });

  it('counts names each sibling page documents for itself once, and less, when they go', () => {
    const backend = (name: string, own: string[]) => ({
      path: `metrics/${name}.md`,
      text: [
        `# ${name}`,
        '',
        ...['addRoutersLabels', 'addServicesLabels', 'pushInterval', ...own].flatMap((option) => [
          `#### \`${option}\``,
          '',
          `What ${option} does.`,
          '',
        ]),
      ].join('\n'),
    });
    const ranked = rankImpact({
      diff: filePatch('pkg/types/metrics.go', [
        '-type InfluxDB struct {',
        '-  RetentionPolicy   string `json:"retentionPolicy,omitempty"`',
        '-  AddRoutersLabels  bool   `json:"addRoutersLabels,omitempty"`',
        '-  AddServicesLabels bool   `json:"addServicesLabels,omitempty"`',
        '-  PushInterval      string `json:"pushInterval,omitempty"`',
        '-}',
      ]),
      pages: [backend('influxdb', ['retentionPolicy']), backend('statsd', []), backend('datadog', [])],
    });
    expect(ranked.pages[0]?.path).toBe('metrics/influxdb.md');
    const statsd = ranked.pages.find((page) => page.path === 'metrics/statsd.md')!;
    expect(statsd.evidence.filter((item) => item.kind === 'name' && item.change === 'removed')).toHaveLength(
      1,
    );
    expect(statsd.affected).toBe(false);
  });
});
