/** A hand-built SVG of throughput and latency against fan-out (log-log, one panel each). */

export interface Series {
  name: string;
  color: string;
  dashed?: boolean;
  points: Array<[number, number]>;
}

interface Panel {
  title: string;
  yLabel: string;
  series: Series[];
}

const W = 460;
const H = 320;
const M = { l: 64, r: 16, t: 34, b: 46 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function logScale(min: number, max: number, from: number, to: number) {
  const a = Math.log10(min);
  const b = Math.log10(max);
  return (v: number) => from + ((Math.log10(v) - a) / (b - a || 1)) * (to - from);
}

function panel(p: Panel, xs: number[], dx: number): string {
  const values = p.series.flatMap((s) => s.points.map(([, y]) => y)).filter((v) => v > 0 && Number.isFinite(v));
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const x = logScale(Math.min(...xs), Math.max(...xs), dx + M.l, dx + W - M.r);
  const y = logScale(yMin, yMax, H - M.b, M.t);
  const parts: string[] = [];
  parts.push(`<text x="${dx + W / 2}" y="20" text-anchor="middle" font-weight="bold">${esc(p.title)}</text>`);
  for (let v = yMin; v <= yMax; v *= 10) {
    parts.push(`<line x1="${dx + M.l}" x2="${dx + W - M.r}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${dx + M.l - 6}" y="${y(v) + 4}" text-anchor="end">${v >= 1 ? v : v.toPrecision(1)}</text>`);
  }
  for (const v of xs) {
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${M.t}" y2="${H - M.b}" stroke="#eee"/>`);
    parts.push(`<text x="${x(v)}" y="${H - M.b + 16}" text-anchor="middle">${v}</text>`);
  }
  parts.push(`<text x="${dx + W / 2}" y="${H - 8}" text-anchor="middle">recipients per message</text>`);
  parts.push(`<text transform="translate(${dx + 14},${H / 2}) rotate(-90)" text-anchor="middle">${esc(p.yLabel)}</text>`);
  p.series.forEach((s, i) => {
    const pts = s.points.filter(([, v]) => v > 0 && Number.isFinite(v));
    if (!pts.length) return;
    const d = pts.map(([a, b], j) => `${j ? 'L' : 'M'}${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const [a, b] of pts) parts.push(`<circle cx="${x(a).toFixed(1)}" cy="${y(b).toFixed(1)}" r="3" fill="${s.color}"/>`);
    const ly = M.t + 4 + i * 15;
    parts.push(`<line x1="${dx + W - M.r - 150}" x2="${dx + W - M.r - 130}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`);
    parts.push(`<text x="${dx + W - M.r - 126}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  return parts.join('\n');
}

export function chartSvg(title: string, xs: number[], throughput: Series[], latency: Series[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H + 24}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${W}" y="${H + 18}" text-anchor="middle" fill="#555">${esc(title)}</text>`,
    panel({ title: 'Send throughput (msg/s, log)', yLabel: 'messages per second', series: throughput }, xs, 0),
    panel({ title: 'Send latency (ms, log)', yLabel: 'milliseconds', series: latency }, xs, W),
    '</svg>',
    '',
  ].join('\n');
}
