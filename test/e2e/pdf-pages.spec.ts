// A PDF's hits say which page they are on. Its lines restart on every page, so without the page
// three hits of one PDF would read alike ("manual.pdf:1-2" three times). The PDF is built here with
// pdf-lib: three pages that each mention the query, a fourth that does not (the control).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FolderStatus } from '../../main/common/status.js';
import { makePdf } from '../helpers/fixtures.js';
import { expect, openWorkbench, shootPanel, test } from './fixtures.js';

test.use({ engineScope: 'pdf-pages' });
test.describe.configure({ mode: 'serial' });

const PAGES = [
  ['Sextant calibration, part one', 'Level the index mirror before any sighting.'],
  ['Sextant calibration, part two', 'Remove side error by turning the horizon mirror screw.'],
  ['Sextant calibration, part three', 'Check index error against the horizon at noon.'],
  ['Chart table', 'Pencils, dividers and a parallel rule live in the drawer.'],
];

let folder = '';

test.beforeAll(async ({ engine }) => {
  folder = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-pdf-')), 'manuals');
  mkdirSync(folder);
  writeFileSync(join(folder, 'manual.pdf'), await makePdf(PAGES));
  await engine.api('POST', '/api/folders', { path: folder });
  await expect
    .poll(
      async () => {
        const folders = await engine.api<FolderStatus[]>('GET', '/api/folders');
        const f = folders.find((s) => s.path === folder);
        return f ? `${f.state} ${f.embedded_chunks}/${f.chunks}` : 'absent';
      },
      { timeout: 120_000 },
    )
    .toMatch(/^fresh (\d+)\/\1$/);
});

test('the probe lists each page of a PDF as its own hit, with its page number', async ({ page, engine }, info) => {
  await openWorkbench(page, engine);
  await page.getByLabel('Probe query').fill('sextant calibration');
  await page.getByTestId('probe-run').click();
  await expect(page.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true', { timeout: 60_000 });
  const hits = page.getByTestId('probe-hit');
  const texts = (await hits.locator('code').allTextContents()).filter((t) => t.includes('manual.pdf'));
  const pages = texts.map((t) => /manual\.pdf page (\d+), lines? \d+(-\d+)?$/.exec(t)?.[1]);
  expect(pages.every(Boolean), texts.join('\n')).toBe(true);
  // The three calibration pages, each once; no two lines alike.
  expect(new Set(pages).size, texts.join('\n')).toBe(texts.length);
  expect(pages.filter((p) => ['1', '2', '3'].includes(p!)).sort(), texts.join('\n')).toEqual(['1', '2', '3']);
  await shootPanel(page, info, 'probe');
});

test('the playground names the page, and Open shows that page of the PDF', async ({ page, engine }, info) => {
  await openWorkbench(page, engine);
  await page.getByTestId('search-query').fill('horizon mirror screw side error');
  await page.getByTestId('search-mode').selectOption('sparse');
  await page.getByTestId('search-run').click();
  const first = page.getByTestId('search-hit').first();
  await expect(first.getByTestId('hit-place')).toHaveText(/manual\.pdf page 2, lines? \d/);
  await first.getByTestId('hit-open').click();
  const viewer = page.getByTestId('file-viewer');
  await expect(viewer.getByTestId('viewer-path')).toContainText('(page 2)');
  await expect(viewer.getByTestId('viewer-content')).toContainText('horizon mirror screw');
  // The control: the page before holds the other text, not this one.
  await viewer.getByRole('button', { name: '← Page' }).click();
  await expect(viewer.getByTestId('viewer-path')).toContainText('(page 1)');
  await expect(viewer.getByTestId('viewer-content')).toContainText('index mirror');
  await expect(viewer.getByTestId('viewer-content')).not.toContainText('horizon mirror screw');
  await shootPanel(page, info, 'search');
});
