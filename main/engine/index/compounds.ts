/**
 * German compounds without a dictionary: Krankenversicherung must be found by Versicherung and
 * by Kranken, Hauptbahnhof by Bahnhof. Lucene's decompounders need a word list (and the free
 * German ones are GPL); instead the index gets, for a long word of German text, its heads (the
 * word's endings: German compounds are right-headed, so the ending is what the word is) and its
 * modifiers (its beginnings), each at least MIN_PART letters, as an n-gram fallback bounded to
 * the word's ends. Only text detected as German gets them, and only in the index (a query word
 * stays whole and meets the part), so English text and every English query are untouched.
 * Lengths are measured on the word without its inflectional ending (ENDING): an ending never makes
 * a head long enough, so the plural of Element gives no "Ente" (Elem|ente) and Studierende no "Ende".
 */
export const MIN_COMPOUND = 8;
/** An indexed part has at least this many letters… */
export const MIN_PART = 4;
/** …and what it leaves of the word at least this many (Not|aufnahme, Tag|ung is kept out by FRAGMENT). */
const MIN_REST = 3;

/** German inflectional endings of nouns and adjectives (Snowball's first step: -ern -em -en -er -es -e, -s after a consonant that takes it). */
const ENDING = /(?:ern|em|en|er|es|e|(?<=[bdfghklmnrt])s)$/u;

/** A head that is a letter or two and a derivational ending (Behand|lung, Erfah|rung) is no word. */
const FRAGMENT = /^\p{L}{1,2}(ung|heit|keit|schaft|ion|tät|nis|lich|isch|ig)$/u;

/**
 * The parts of a German word that are indexed beside it: its endings and beginnings of at least
 * MIN_PART letters that leave at least MIN_REST letters of the word beside them.
 */
export function compoundParts(word: string): string[] {
  if (!/^\p{L}+$/u.test(word)) return [];
  const chars = [...word];
  const base = [...word.replace(ENDING, '')].length;
  if (base < MIN_COMPOUND) return [];
  const out: string[] = [];
  // A head keeps the word's ending (the stemmer removes it as it does from the word alone).
  for (let i = MIN_REST; i <= base - MIN_PART; i++) {
    const head = chars.slice(i).join('');
    if (!FRAGMENT.test(head.replace(ENDING, ''))) out.push(head);
  }
  for (let i = MIN_PART; i <= base - MIN_REST; i++) out.push(chars.slice(0, i).join(''));
  return out;
}
