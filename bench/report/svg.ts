/** Hand-written horizontal bar charts as standalone SVG: no chart library, readable in any viewer. */
import type { Chart } from '../lib/results.js';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function fmt(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
}

export function barChartSvg(chart: Chart): string {
  const labelW = Math.min(260, 12 + 7 * Math.max(4, ...chart.bars.map((b) => b.label.length)));
  const barW = 360;
  const rowH = 22;
  const top = 34;
  const width = labelW + barW + 90;
  const height = top + rowH * chart.bars.length + 12;
  const max = Math.max(0, ...chart.bars.map((b) => (Number.isFinite(b.value) ? b.value : 0)));
  const rows = chart.bars.map((b, i) => {
    const y = top + i * rowH;
    const v = Number.isFinite(b.value) ? Math.max(0, b.value) : 0;
    const w = max > 0 ? Math.max(1, Math.round((v / max) * barW)) : 1;
    const fill = b.reference ? '#9aa5b1' : '#2f6fb0';
    return [
      `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${labelW}" y="${y + 3}" width="${w}" height="${rowH - 6}" fill="${fill}"/>`,
      `<text x="${labelW + w + 6}" y="${y + 15}">${esc(fmt(b.value))}</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="8" y="20" font-size="14" font-weight="bold">${esc(chart.title)}${chart.unit ? ` (${esc(chart.unit)})` : ''}</text>`,
    ...rows,
    '</svg>',
    '',
  ].join('\n');
}
