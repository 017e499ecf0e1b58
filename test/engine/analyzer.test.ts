// The full-text analyzer (index/analyzer.ts): what a query and a document reduce to decides
// whether they meet in BM25, so each rule is checked on both sides.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeForIndex, analyzeQuery, FileText, textLanguage } from '../../main/engine/index/analyzer.js';

const terms = (s: string) => s.split(' ').filter(Boolean);
/** Whether every term of the analysed query is among the analysed document's terms. */
const meets = (query: string, doc: string) => {
  const d = new Set(terms(analyzeForIndex(doc)));
  return terms(analyzeQuery(query)).some((t) => d.has(t));
};

describe('English analysis (Lucene EnglishAnalyzer-like)', () => {
  test('lower case, possessives, stop words and Porter stems', () => {
    assert.deepEqual(terms(analyzeForIndex("The patient's generalizations of the Running dogs")), [
      'patient',
      'gener',
      'run',
      'dog',
    ]);
    assert.deepEqual(terms(analyzeQuery('the dogs')), ['dog']);
  });

  test('a query term counts once however often the query (or its analysis) repeats it', () => {
    // LanceDB 0.37 counts a repeated query token again; counting it scored lower on every quality set.
    assert.deepEqual(terms(analyzeQuery('dogs chase dogs and the dog')), ['dog', 'chase']);
    // Control: the document side keeps every occurrence (term frequency is what BM25 scores there).
    assert.deepEqual(terms(analyzeForIndex('dogs chase dogs and the dog')), ['dog', 'chase', 'dog', 'dog']);
  });

  test('a query of stop words only has no terms', () => {
    assert.equal(analyzeQuery('to be or not to be'), '');
    assert.notEqual(analyzeQuery('to be or not to bee'), '');
  });

  test('diacritics are folded, so résumé meets resume', () => {
    assert.ok(meets('resume', 'My résumé, updated'));
    assert.ok(!meets('resurgence', 'My résumé, updated'));
  });

  test('numbers and words split at punctuation, as the standard tokenizer does', () => {
    assert.deepEqual(terms(analyzeForIndex('COVID-19 in 2020')), ['covid', '19', '2020']);
  });
});

describe('identifiers', () => {
  test('camelCase and snake_case give their words, and the whole name stays', () => {
    const t = terms(analyzeForIndex('function parseInvoiceTotals(crc32_checksum) { HTTPServer }'));
    for (const w of ['parseinvoicetot', 'pars', 'invoic', 'total', 'crc32', 'checksum', 'httpserver', 'http', 'server'])
      assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    assert.ok(meets('parse invoice totals', 'export function parseInvoiceTotals() {}'));
    assert.ok(meets('parseInvoiceTotals', 'export function parseInvoiceTotals() {}'));
  });

  test('acronyms in prose are not split into letters', () => {
    assert.deepEqual(terms(analyzeForIndex('mRNA levels')), ['mrna', 'level']);
  });
});

describe('CJK', () => {
  test('bigrams: a word inside a longer run matches', () => {
    assert.ok(meets('熊猫', '大熊猫是中国的国宝。'));
    assert.ok(meets('東京', '東京タワーに行きました'));
    assert.ok(meets('도서관', '도서관에서 책을 읽었습니다'));
    // Control: a word that is not in the text does not.
    assert.ok(!meets('老虎', '大熊猫是中国的国宝。'));
  });

  test('a one-character query matches the character (the index keeps single characters)', () => {
    assert.ok(meets('猫', '大熊猫'));
    assert.ok(!meets('狗', '大熊猫'));
  });
});

describe('other languages are stemmed in their own language', () => {
  test('Russian inflections meet', () => {
    assert.ok(meets('веник', 'Он подметал пол вениками.'));
    assert.ok(meets('вениками', 'Новый веник стоит в углу.'));
    assert.ok(!meets('метла', 'Новый веник стоит в углу.'));
  });

  test('German, French and Spanish inflections meet in documents of that language', () => {
    assert.ok(meets('Katze', 'Die Katzen schlafen auf dem Sofa, und der Hund ist nicht da.'));
    assert.ok(meets('maison', 'Les maisons sont très belles et elles sont dans la ville.'));
    assert.ok(meets('ciudad', 'Las ciudades de España son muy bonitas y están llenas de gente.'));
    assert.ok(!meets('perro', 'Las ciudades de España son muy bonitas y están llenas de gente.'));
  });

  test('Arabic words are stemmed', () => {
    assert.ok(meets('مكتبة', 'زرت المكتبات العامة في المدينة'));
  });

  test('a short chunk takes the language of its file', () => {
    const german = analyzeForIndex('Katzen', 'de');
    assert.equal(german, 'katz');
    assert.equal(analyzeForIndex('Katzen'), 'katzen');
  });
});

describe('German compounds (index-side heads and modifiers)', () => {
  const doc = 'Die Krankenversicherung übernimmt die Kosten im Kinderkrankenhaus, gleich neben dem Hauptbahnhof.';
  test('a head or a modifier of a compound in German text finds it', () => {
    for (const q of ['Versicherung', 'Krankenhaus', 'Bahnhof', 'Kinder']) assert.ok(meets(q, doc), q);
    // Control: a word the text does not hold in any compound.
    assert.ok(!meets('Flughafen', doc));
  });

  test('a derivational ending is no part (Behandlung gives no "lung")', () => {
    assert.ok(!terms(analyzeForIndex('Die Behandlung und die Erfahrung sind nicht neu.')).includes('lung'));
    assert.ok(!meets('lung', 'Die Behandlung und die Erfahrung sind nicht neu.'));
  });

  test('an inflectional ending makes no head: "Ente" is not in Elemente, "Ende" not in Studierende', () => {
    const text = 'Die Elemente der Liste werden von Studierende und Dozenten im Semester geprüft.';
    for (const q of ['Ente', 'Enten', 'Ende']) assert.ok(!meets(q, text), q);
    // Control: a head of four letters before its ending is still a part (Alters|rente), as is a modifier.
    const pension = 'Die Altersrente wird im Januar erhöht, sagt die Rentenversicherung.';
    for (const q of ['Rente', 'Versicherung', 'Renten']) assert.ok(meets(q, pension), q);
  });

  test('English text gets no parts: its tokens are unchanged', () => {
    const english = 'The understanding of supersonic characteristics of the boundary layer';
    assert.deepEqual(terms(analyzeForIndex(english)), ['understand', 'superson', 'characterist', 'boundari', 'layer']);
    assert.ok(!meets('standing', english));
    // Control: the same word in German text is split.
    assert.ok(meets('Stand', 'Der Wasserstand ist nicht hoch und die Flut kommt nicht.'));
  });

  test('a query word is not split (a part would match far too much)', () => {
    assert.deepEqual(
      terms(analyzeQuery('Krankenversicherung')).filter((t) => t.startsWith('versich')),
      [],
    );
  });
});

describe('Thai (unspaced scripts)', () => {
  const doc = 'แมวดำนอนอยู่บนโซฟาทั้งวัน รถไฟฟ้าในกรุงเทพมหานครช่วยให้การเดินทางสะดวก';
  test('dictionary words are found inside a run without spaces', () => {
    const t = terms(analyzeForIndex(doc));
    for (const w of ['แมว', 'ดำ', 'โซฟา', 'รถไฟฟ้า']) assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    for (const q of ['แมว', 'โซฟา', 'รถไฟฟ้า']) assert.ok(meets(q, doc), q);
  });

  test('a word the dictionary keeps inside a longer one is found by the bigram fallback', () => {
    const d = new Set(terms(analyzeForIndex(doc)));
    const allIn = (q: string) => terms(analyzeQuery(q)).filter((t) => !d.has(t));
    assert.ok(!d.has('กรุงเทพ'));
    // Every bigram of the query is in the document; only the word itself is not.
    assert.deepEqual(allIn('กรุงเทพ'), ['กรุงเทพ']);
    // Control: Thai text that is not in the document misses bigrams too.
    assert.ok(allIn('ห้องสมุด').length > 2);
  });
});

describe('the analyzer is part of the sparse contract', () => {
  test('an index built with the previous full-text settings reports sparse_contract_mismatch', async () => {
    const { checkContract, FTS_SETTINGS } = await import('../../main/engine/index/contract.js');
    const wanted = { embedding_model: 'm', embedding_dimensions: 512, chunker_version: 3, fts: { ...FTS_SETTINGS } };
    const before = { ...wanted, fts: { tokenizer: 'simple', stem: true, stop_words: true, language: 'English' } };
    assert.equal(checkContract(before, wanted).sparse?.code, 'sparse_contract_mismatch');
    // Control: the same settings match.
    assert.equal(checkContract({ ...wanted, fts: { ...FTS_SETTINGS } }, wanted).sparse, null);
    assert.match(FTS_SETTINGS.analyzer, /^cairn-\d+$/);
  });
});

test("an indexed word's terms are remembered per language: the same word stems by each text's language", () => {
  const en = 'The report is about the fonctionnement of the system, and it was written for the team.';
  const fr = "Le rapport est sur le fonctionnement du système, et il a été écrit pour l'équipe avec une note.";
  const tokens = (text: string) => analyzeForIndex(text).split(' ');
  // Both orders and twice over: a memo keyed by the word alone would give the first language's stem.
  for (const round of [0, 1]) {
    assert.ok(tokens(en).includes('fonctionn'), `round ${round}: ${tokens(en).join(' ')}`);
    assert.ok(tokens(fr).includes('fonction'), `round ${round}: ${tokens(fr).join(' ')}`);
    assert.ok(!tokens(fr).includes('fonctionn'));
    assert.ok(tokens(en).includes('fonctionn'));
  }
});

describe('FileText: a file analysed once for its language and its document', () => {
  // Each body meets the header at a line break in a way a split analysis could get wrong.
  const bodies = [
    '\u0301accent on the first character, then words',
    "'s possessive at the start and John's at the end's",
    'ÄRGER über die Straße und der Hund ist nicht hier',
    '大熊猫 at the start, then parseInvoiceTotals',
    'ﬁne ＡＢＣ１２３ compatibility forms',
    '',
    'word '.repeat(6000),
    'der Hund '.repeat(20_000),
  ];
  const headers = ['notes\nparseInvoice', 'readme\n', 'x'];

  test('gives exactly what analysing the joined text gives, cut or not, in every language', () => {
    let compared = 0;
    for (const body of bodies)
      for (const header of headers)
        for (const max of [200_000, 50, header.length + 1 + body.length])
          for (const fallback of ['en', 'de', 'fr'] as const) {
            const file = new FileText(body);
            assert.deepEqual(file.language(), textLanguage(body));
            assert.equal(
              file.analyzeAfter(header, max, fallback),
              analyzeForIndex(`${header}\n${body}`.slice(0, max), fallback),
              `${JSON.stringify(body.slice(0, 30))} after ${JSON.stringify(header)}, max ${max}, ${fallback}`,
            );
            compared++;
          }
    assert.equal(compared, bodies.length * headers.length * 3 * 3);
  });

  test("a chunk that is a run of the file's lines is analysed as its joined text is, and any other text too", () => {
    // Line ends of every kind, a line of a lone mark (its only term is empty), one of stop words
    // only, lines in another language than the file's, a possessive at a line's end.
    const lines = [
      "John's notes on parseInvoiceTotals and the bill's",
      '\u0301',
      'the and of',
      'der Hund ist nicht hier und die Katze ist auch nicht da',
      'ﬁne ＡＢＣ１２３ 大熊猫 compatibility',
      '',
      '  indented words\u2028after a line separator',
      'le chat est dans la maison avec les enfants',
      'last',
    ];
    const breaks = ['\n', '\r\n', '\r', '\n', '\n', '\r\n', '\n', '\n'];
    const body = lines.map((l, k) => l + (breaks[k] ?? '')).join('');
    let compared = 0;
    for (const fallback of ['en', 'de'] as const) {
      const file = new FileText(body);
      for (let s = 1; s <= lines.length; s++)
        for (let e = s; e <= lines.length; e++)
          for (const head of ['notes\nparseInvoice', '\n']) {
            const run = lines.slice(s - 1, e).join('\n');
            // The run itself; text that is not lines s..e (a piece of them, other numbers); a run
            // joined by the file's own line ends.
            for (const [text, a, b] of [
              [run, s, e],
              [run.slice(1), s, e],
              [run, s + 1, e + 1],
              [
                body
                  .split(/\r\n|\r|\n/)
                  .slice(s - 1, e)
                  .join('\r\n'),
                s,
                e,
              ],
            ] as const) {
              assert.equal(
                file.analyzeChunk(head, text, a, b, fallback),
                analyzeForIndex(`${head}\n${text}`, fallback),
                `${JSON.stringify(text.slice(0, 40))} as lines ${a}-${b} after ${JSON.stringify(head)}, ${fallback}`,
              );
              compared++;
            }
          }
      // The document after the chunks, from the terms they left.
      assert.equal(file.analyzeAfter('notes', 200_000, fallback), analyzeForIndex(`notes\n${body}`, fallback));
    }
    assert.equal(compared, 2 * ((lines.length * (lines.length + 1)) / 2) * 2 * 4);
  });

  test("control: the header's words are part of the document", () => {
    const file = new FileText('the body');
    assert.notEqual(file.analyzeAfter('invoices', 200_000, 'en'), analyzeForIndex('the body', 'en'));
    assert.ok(terms(file.analyzeAfter('invoices', 200_000, 'en')).includes('invoic'));
  });
});
