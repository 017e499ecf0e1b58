import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as porter } from 'stemmer';

/**
 * Which language a Latin-script text is in, and each language's stemmer. English uses the classic
 * Porter stemmer (what Lucene's EnglishAnalyzer and Anserini's BM25 baselines use); the others
 * use Snowball. Cyrillic and Arabic words are stemmed by their script (Russian, Arabic), which
 * needs no detection.
 */
export type LatinLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl';
export const LATIN_LANGUAGES: readonly LatinLanguage[] = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];

/**
 * Frequent function words of each language: a text's language is the one whose words it uses
 * most (the stop-word profile method). Words shared by several languages count for each.
 */
const PROFILE: Record<LatinLanguage, Set<string>> = {
  en: words(
    'the and of to is in that with for this are was it be as on by not from which have or were has been an at their its',
  ),
  de: words(
    'der die das und ist nicht mit den dem ein eine einer eines auf für auch sich von zu im wird sind werden aus bei nach wie oder über noch nur wurde',
  ),
  fr: words(
    'le la les des et est une un du pour dans que qui pas sur avec ne au aux par sont ce cette il elle nous vous ils mais ou été être leur',
  ),
  es: words(
    'el la los las y es una un del para en que por con no se al lo como más pero sus su está son ha fue muy entre también desde',
  ),
  it: words(
    'il lo gli della di e è che per una un non con sono del nel alla questo anche come più dei delle nella ha essere',
  ),
  pt: words('o os as da do dos das e é um uma não que para com em no na por mais foi são ao pelo pela também seu sua'),
  nl: words(
    'de het een en van is niet dat op te met voor zijn er maar ook worden wordt bij naar uit aan door deze dit',
  ),
};

/** Letters that only (or mostly) one of the languages writes. */
const MARKS: [RegExp, LatinLanguage][] = [
  [/[ßäöü]/u, 'de'],
  [/[ñ¿¡]/u, 'es'],
  [/[çœèêëîïûù]/u, 'fr'],
  [/[ãõ]/u, 'pt'],
  [/[ìò]/u, 'it'],
];

/** Any of MARKS' letters: most text has none, and one test then stands for five. */
const ANY_MARK = new RegExp(`[${MARKS.map(([re]) => re.source.slice(1, -1)).join('')}]`, 'u');

function words(s: string): Set<string> {
  return new Set(s.split(' '));
}

/** Each profile word's languages, so that a word costs one lookup, not one per language. */
const PROFILED = new Map<string, LatinLanguage[]>();
for (const l of LATIN_LANGUAGES) for (const w of PROFILE[l]) PROFILED.set(w, [...(PROFILED.get(w) ?? []), l]);

export interface Detected {
  language: LatinLanguage;
  /** False when the text gave too little evidence (a short query): callers may consider every language. */
  confident: boolean;
}

/** The language of a text by its function words and its letters; English when there is no evidence. */
export function detectLatin(lowerWords: readonly string[], lowerText: string): Detected {
  const score = new Map<LatinLanguage, number>();
  for (const w of lowerWords) {
    const ls = PROFILED.get(w);
    if (ls) for (const l of ls) score.set(l, (score.get(l) ?? 0) + 1);
  }
  if (ANY_MARK.test(lowerText))
    for (const [re, l] of MARKS) if (re.test(lowerText)) score.set(l, (score.get(l) ?? 0) + 1.5);
  let best: LatinLanguage = 'en';
  let top = 0;
  let second = 0;
  for (const l of LATIN_LANGUAGES) {
    const s = score.get(l) ?? 0;
    if (s > top) {
      second = top;
      top = s;
      best = l;
    } else if (s > second) second = s;
  }
  if (top === 0) return { language: 'en', confident: false };
  // English ties go to English: most text without a clear profile is English or code.
  if (top === second && (score.get('en') ?? 0) === top) return { language: 'en', confident: false };
  return { language: best, confident: top >= 1 && top > second };
}

const STEMMERS: Record<LatinLanguage | 'ru' | 'ar', (w: string) => string> = {
  en: porter,
  de: german,
  fr: french,
  es: spanish,
  it: italian,
  pt: portuguese,
  nl: dutch,
  ru: russian,
  ar: arabic,
};

const CACHE_MAX = 200_000;
const caches = new Map<string, Map<string, string>>();

/** A word's stem in a language (cached: the same words recur across chunks). */
export function stem(language: keyof typeof STEMMERS, word: string): string {
  let cache = caches.get(language);
  if (!cache) caches.set(language, (cache = new Map()));
  let s = cache.get(word);
  if (s === undefined) {
    if (cache.size >= CACHE_MAX) cache.clear();
    try {
      s = STEMMERS[language](word) || word;
    } catch {
      s = word;
    }
    cache.set(word, s);
  }
  return s;
}
