import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CairnError } from '../../main/engine/errors.js';
import { parseFile } from '../../main/engine/parse/index.js';
import { MAX_PDF_PAGES, MAX_PDF_TEXT_CHARS, pdfPages } from '../../main/engine/parse/documents.js';
import { makeDocx, makePdf } from '../helpers/fixtures.js';
import { countTokens, opts } from './counter.js';

test('HTML chunks map back to the source lines of their text', async () => {
  const html =
    '<html><head><title>T</title></head>\n<body>\n<h1>Heading One</h1>\n<p>first\nsecond line</p>\n\n<div>\n  <span>third</span>\n</div>\n</body></html>\n';
  const r = await parseFile({ path: '/a.html', rel: 'a.html' }, Buffer.from(html), opts);
  assert.equal(r.chunks.length, 1);
  const c = r.chunks[0];
  assert.equal(c.kind, 'html');
  assert.equal(c.startLine, 1);
  assert.equal(c.endLine, 8);
  assert.deepEqual(c.text.split('\n').filter(Boolean), ['T', 'Heading One', 'first', 'second line', 'third']);
  assert.deepEqual(
    r.symbols.map((s) => [s.name, s.kind, s.startLine]),
    [['Heading One', 'heading', 3]],
  );
});

test('a long HTML page is windowed within the token budget', async () => {
  const paras = Array.from(
    { length: 80 },
    (_, i) => `<p>Paragraph number ${i} describes the harbour and its cranes &amp; ships.</p>`,
  ).join('\n');
  const r = await parseFile({ path: '/b.html', rel: 'b.html' }, Buffer.from(`<body>\n${paras}\n</body>`), opts);
  assert.ok(r.chunks.length > 5);
  for (const c of r.chunks) assert.ok(countTokens(c.text) <= opts.maxTokens);
  assert.ok(r.chunks[0].text.includes('cranes & ships'));
  assert.equal(r.chunks[0].startLine, 2);
});

test('PDF: a long page is split into chunks of that page with lines within the page', async () => {
  const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the long page about shipping logistics.`);
  const bytes = await makePdf([['Short first page'], lines]);
  const r = await parseFile({ path: '/r.pdf', rel: 'r.pdf' }, Buffer.from(bytes), opts);
  const p2 = r.chunks.filter((c) => c.page === 2);
  assert.ok(p2.length > 1);
  assert.equal(p2[0].startLine, 1);
  assert.ok(p2[p2.length - 1].endLine >= 30);
  for (const c of r.chunks) assert.ok(countTokens(c.text) <= opts.maxTokens);
  assert.deepEqual(
    r.chunks.filter((c) => c.page === 1).map((c) => c.text),
    ['Short first page'],
  );
});

/** A hand-written PDF of `count` empty pages (one page tree, a correct xref table): small, and cheap to make. */
function emptyPagesPdf(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ');
  const objs = [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[${kids}]/Count ${count}/MediaBox[0 0 200 200]>>`,
    ...Array.from({ length: count }, () => '<</Type/Page/Parent 2 0 R>>'),
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj ${o} endobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer <</Size ${objs.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

test("PDF pages read one at a time give the text unpdf's all-pages helper gives", async () => {
  const bytes = await makePdf([['First page line one', 'and line two'], ['Second page'], ['Third page, last line']]);
  const { extractText, getDocumentProxy } = await import('unpdf');
  const reference = (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false })).text;
  assert.deepEqual(await pdfPages(bytes, 'three.pdf'), reference);
  assert.equal(reference.length, 3);
});

test('PDF caps: more pages than the cap, or more text, is refused with a typed error naming the file and the cap', async () => {
  const three = await makePdf([['alpha alpha'], ['beta beta'], ['gamma gamma']]);
  // Controls: at exactly the limits the same file is read.
  assert.equal((await pdfPages(three, 'three.pdf', { pages: 3, chars: MAX_PDF_TEXT_CHARS })).length, 3);
  const chars = (await pdfPages(three, 'three.pdf')).join('').length;
  assert.equal((await pdfPages(three, 'three.pdf', { pages: MAX_PDF_PAGES, chars })).length, 3);
  await assert.rejects(
    pdfPages(three, 'three.pdf', { pages: 2, chars: MAX_PDF_TEXT_CHARS }),
    (err: unknown) =>
      err instanceof CairnError &&
      err.code === 'invalid_argument' &&
      /three\.pdf: 3 pages \(limit 2\)/.test(err.message) &&
      err.details?.reason === 'page cap',
  );
  await assert.rejects(
    pdfPages(three, 'three.pdf', { pages: MAX_PDF_PAGES, chars: chars - 1 }),
    (err: unknown) =>
      err instanceof CairnError &&
      err.code === 'invalid_argument' &&
      /passes \d+ characters by page 3/.test(err.message) &&
      err.details?.reason === 'text cap',
  );
  // The real cap, through the parser the indexer uses: one page too many, in a few hundred kilobytes.
  const many = emptyPagesPdf(MAX_PDF_PAGES + 1);
  assert.equal(
    (await pdfPages(emptyPagesPdf(3), 'empty.pdf')).length,
    3,
    'the hand-written PDF is not read as written',
  );
  await assert.rejects(
    parseFile({ path: '/x/many.pdf', rel: 'many.pdf' }, many, opts),
    (err: unknown) =>
      err instanceof CairnError &&
      err.code === 'invalid_argument' &&
      err.message.includes(`many.pdf: ${MAX_PDF_PAGES + 1} pages (limit ${MAX_PDF_PAGES})`),
  );
});

test('DOCX: paragraphs are numbered as lines of the extracted text', async () => {
  const bytes = await makeDocx(['Alpha paragraph.', 'Beta paragraph.']);
  const r = await parseFile({ path: '/n.docx', rel: 'n.docx' }, bytes, opts);
  assert.deepEqual(
    r.chunks.map((c) => [c.kind, c.startLine, c.endLine, c.text]),
    [['docx', 1, 3, 'Alpha paragraph.\n\nBeta paragraph.']],
  );
});

test('a corrupt PDF or DOCX throws a CairnError naming the file', async () => {
  for (const rel of ['bad.pdf', 'bad.docx']) {
    await assert.rejects(
      parseFile({ path: `/x/${rel}`, rel }, Buffer.from('this is not a real document'), opts),
      (err: unknown) => err instanceof CairnError && err.code === 'internal' && err.message.includes(rel),
    );
  }
});

test('HTML chunks are labelled with the heading above them; links are refs', async () => {
  const sections = ['Alpha', 'Beta']
    .map(
      (h) =>
        `<h2>${h}</h2>\n` +
        Array.from({ length: 20 }, (_, i) => `<p>${h} paragraph ${i} with enough words to fill windows.</p>`).join(
          '\n',
        ),
    )
    .join('\n');
  const r = await parseFile(
    { path: '/c.html', rel: 'c.html' },
    Buffer.from(`<body>\n<a href="other.html">o</a> <a href="#top">top</a>\n${sections}\n</body>`),
    opts,
  );
  const beta = r.chunks.filter((c) => c.text.includes('Beta paragraph 10'));
  assert.ok(beta.length >= 1);
  assert.ok(beta.every((c) => c.heading === 'Beta'));
  assert.equal(r.chunks[0].heading, undefined);
  assert.deepEqual(
    r.refs.map((x) => [x.kind, x.target, x.line]),
    [['link', 'other.html', 2]],
  );
});

test('a damaged PDF is read without pdf.js printing its warnings to the terminal', async () => {
  // No xref table: pdf.js rebuilds it and warns "Indexing all PDF objects" on console.warn.
  const broken = Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1/MediaBox[0 0 200 200]>> endobj\n3 0 obj <</Type/Page/Parent 2 0 R>> endobj\ntrailer <</Size 4/Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
  const printed: string[] = [];
  const warn = console.warn;
  const log = console.log;
  console.warn = (...a: unknown[]) => void printed.push(a.join(' '));
  console.log = (...a: unknown[]) => void printed.push(a.join(' '));
  try {
    // Control: pdf.js at its default level (1, warnings; the level is process-wide, so it is named) warns about this file.
    const { getDocumentProxy } = await import('unpdf');
    await getDocumentProxy(new Uint8Array(broken), { verbosity: 1 });
    assert.ok(
      printed.some((l) => /Warning/.test(l)),
      'the control PDF should make pdf.js warn: ' + JSON.stringify(printed),
    );
    printed.length = 0;
    assert.deepEqual(await pdfPages(broken, 'broken.pdf'), ['']);
    assert.deepEqual(printed, []);
  } finally {
    console.warn = warn;
    console.log = log;
  }
});
