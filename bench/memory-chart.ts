/** The memory samples of bench/memory-load.ts as a line chart in plain SVG, and their trend. */

export interface MemorySample {
  seconds: number;
  phase: 'idle' | 'load';
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

type Series = 'rss' | 'heapUsed' | 'heapTotal';

/** Least-squares slope of `series` in MB per minute (0 with fewer than two samples). */
export function slopePerMinute(samples: MemorySample[], series: Series): number {
  if (samples.length < 2) return 0;
  const xs = samples.map((each) => each.seconds / 60);
  const ys = samples.map((each) => each[series]);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, index) => {
    num += (x - mx) * (ys[index]! - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

/**
 * The lowest sample of each minute, per series: the memory left after the collector has run. Ten
 * seconds between samples catch a sawtooth at any height, so a slope over raw samples swings with
 * where the last teeth fell; a slope over the floors of whole minutes shows what stays.
 */
export function minuteFloors(samples: MemorySample[]): MemorySample[] {
  const start = samples[0]?.seconds ?? 0;
  const minutes = new Map<number, MemorySample[]>();
  for (const each of samples) {
    const minute = Math.floor((each.seconds - start) / 60);
    minutes.set(minute, [...(minutes.get(minute) ?? []), each]);
  }
  // A minute cut short (the last sample taken as the load ends) has no floor to speak of.
  const full = [...minutes.entries()].filter(([, group]) => group.length >= 4);
  return full.map(([minute, group]) => ({
    seconds: start + minute * 60,
    phase: group[0]!.phase,
    rss: Math.min(...group.map((each) => each.rss)),
    heapUsed: Math.min(...group.map((each) => each.heapUsed)),
    heapTotal: Math.min(...group.map((each) => each.heapTotal)),
  }));
}

const WIDTH = 760;
const HEIGHT = 360;
const PAD = { left: 56, right: 150, top: 28, bottom: 40 };
const LINES: { series: Series; label: string; color: string }[] = [
  { series: 'rss', label: 'RSS', color: '#c0392b' },
  { series: 'heapTotal', label: 'heap total', color: '#2980b9' },
  { series: 'heapUsed', label: 'heap used', color: '#27ae60' },
];

/** A step of 1, 2 or 5 times a power of ten giving about `count` ticks up to `max`. */
function tickStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw) ?? raw;
}

export function memoryChartSvg(samples: MemorySample[]): string {
  const maxMinutes = Math.max(1, ...samples.map((each) => each.seconds / 60));
  const maxMb = Math.max(1, ...samples.map((each) => Math.max(each.rss, each.heapTotal))) * 1.1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (minutes: number) => PAD.left + (minutes / maxMinutes) * plotW;
  const y = (mb: number) => PAD.top + plotH - (mb / maxMb) * plotH;
  const parts: string[] = [];
  const loadStart = samples.find((each) => each.phase === 'load');
  if (loadStart) {
    const left = x(loadStart.seconds / 60);
    parts.push(
      `<rect x="${left.toFixed(1)}" y="${PAD.top}" width="${(PAD.left + plotW - left).toFixed(1)}" height="${plotH}" fill="#f4f4f4"/>`,
      `<text x="${(left + 4).toFixed(1)}" y="${PAD.top + 14}" font-size="11" fill="#555">under load</text>`,
      `<text x="${PAD.left + 4}" y="${PAD.top + 14}" font-size="11" fill="#555">idle</text>`,
    );
  }
  const mbStep = tickStep(maxMb, 6);
  for (let mb = 0; mb <= maxMb; mb += mbStep) {
    parts.push(
      `<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(mb).toFixed(1)}" y2="${y(mb).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${(y(mb) + 4).toFixed(1)}" font-size="11" text-anchor="end">${mb}</text>`,
    );
  }
  const minuteStep = tickStep(maxMinutes, 10);
  for (let minute = 0; minute <= maxMinutes; minute += minuteStep) {
    parts.push(
      `<text x="${x(minute).toFixed(1)}" y="${PAD.top + plotH + 16}" font-size="11" text-anchor="middle">${minute}</text>`,
    );
  }
  LINES.forEach((line, index) => {
    const points = samples.map(
      (each) => `${x(each.seconds / 60).toFixed(1)},${y(each[line.series]).toFixed(1)}`,
    );
    parts.push(
      `<polyline fill="none" stroke="${line.color}" stroke-width="2" points="${points.join(' ')}"/>`,
      `<line x1="${WIDTH - PAD.right + 16}" x2="${WIDTH - PAD.right + 36}" y1="${PAD.top + 10 + index * 18}" y2="${PAD.top + 10 + index * 18}" stroke="${line.color}" stroke-width="2"/>`,
      `<text x="${WIDTH - PAD.right + 42}" y="${PAD.top + 14 + index * 18}" font-size="12">${line.label}</text>`,
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${PAD.left}" y="18" font-size="13">docwright serve memory, Mintlify corpus: idle, then mixed load (MB, every 10 s)</text>`,
    ...parts,
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 6}" font-size="11" text-anchor="middle">minutes</text>`,
    '</svg>',
    '',
  ].join('\n');
}
