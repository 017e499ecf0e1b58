/**
 * A small hand-written multilingual set (issue 13): a few documents per language on distinct
 * topics, and per language queries of three kinds: an exact word of the answer document, a
 * substring of a longer word or run (CJK words inside a sentence, a German compound's part), and
 * an inflected form the document does not contain verbatim. Each query has one answer document.
 */
export type QueryKind = 'exact' | 'substring' | 'inflected';

export interface MlDoc {
  id: string;
  lang: string;
  text: string;
}

export interface MlQuery {
  lang: string;
  kind: QueryKind;
  text: string;
  answer: string;
}

export const ML_DOCS: MlDoc[] = [
  {
    id: 'de-1',
    lang: 'de',
    text: 'Die Katzen schlafen den ganzen Tag auf dem Sofa. Abends jagen sie Mäuse im Garten und kommen erst spät zurück.',
  },
  {
    id: 'de-2',
    lang: 'de',
    text: 'Der Bahnhof der Stadt wurde im letzten Jahr renoviert. Die Züge nach Berlin fahren jetzt jede halbe Stunde.',
  },
  {
    id: 'de-3',
    lang: 'de',
    text: 'Unsere Kinder lernen in der Schule das Einmaleins. Die Lehrerin erklärt die Aufgaben mit großer Geduld.',
  },
  {
    id: 'de-4',
    lang: 'de',
    text: 'Die Donaudampfschifffahrt war früher ein wichtiges Verkehrsmittel. Heute fahren auf dem Fluss vor allem Ausflugsschiffe.',
  },
  {
    id: 'fr-1',
    lang: 'fr',
    text: 'Les maisons du village sont construites en pierre. Elles ont des toits rouges et des volets bleus.',
  },
  {
    id: 'fr-2',
    lang: 'fr',
    text: 'Le boulanger prépare le pain chaque matin avant le lever du soleil. Les croissants sont vendus dès six heures.',
  },
  {
    id: 'fr-3',
    lang: 'fr',
    text: 'Les étudiants ont visité le musée pour étudier la peinture impressionniste et les sculptures anciennes.',
  },
  { id: 'fr-4', lang: 'fr', text: "L'hôpital de la ville a ouvert un nouveau service pour les enfants malades." },
  {
    id: 'es-1',
    lang: 'es',
    text: 'Las ciudades de la costa están llenas de turistas durante el verano. Los hoteles suben sus precios.',
  },
  {
    id: 'es-2',
    lang: 'es',
    text: 'El agricultor cultiva naranjas y limones en su finca. La cosecha de este año ha sido muy buena.',
  },
  {
    id: 'es-3',
    lang: 'es',
    text: 'Los niños juegan al fútbol en el parque después de la escuela. Sus padres los miran desde los bancos.',
  },
  {
    id: 'es-4',
    lang: 'es',
    text: 'La biblioteca municipal ofrece libros en varios idiomas y cursos de lectura para adultos.',
  },
  { id: 'ru-1', lang: 'ru', text: 'В бане он парился берёзовыми вениками, а потом прыгал в холодный снег.' },
  { id: 'ru-2', lang: 'ru', text: 'Студенты готовятся к экзаменам в университетской библиотеке до поздней ночи.' },
  { id: 'ru-3', lang: 'ru', text: 'Рыбаки вышли в море на рассвете и вернулись с богатым уловом трески.' },
  { id: 'ru-4', lang: 'ru', text: 'Новая линия метро соединила центр города с аэропортом.' },
  { id: 'zh-1', lang: 'zh', text: '大熊猫是中国的国宝，主要生活在四川的山区，以竹子为食。' },
  { id: 'zh-2', lang: 'zh', text: '北京的地铁系统每天运送数百万乘客，是世界上最繁忙的地铁之一。' },
  { id: 'zh-3', lang: 'zh', text: '中医认为喝绿茶有助于消化，很多老人每天早上都喝一杯。' },
  { id: 'zh-4', lang: 'zh', text: '长城是古代为了防御北方游牧民族而修建的军事工程。' },
  { id: 'ja-1', lang: 'ja', text: '東京タワーは一九五八年に完成した電波塔で、今も多くの観光客が訪れます。' },
  { id: 'ja-2', lang: 'ja', text: '日本の桜は三月から四月にかけて咲き、人々は公園で花見を楽しみます。' },
  { id: 'ja-3', lang: 'ja', text: '新幹線は東京と大阪を約二時間半で結ぶ高速鉄道です。' },
  { id: 'ja-4', lang: 'ja', text: '寿司職人は毎朝市場で新鮮な魚を選びます。' },
  { id: 'ko-1', lang: 'ko', text: '서울의 도서관에서 학생들이 시험 공부를 하고 있습니다.' },
  { id: 'ko-2', lang: 'ko', text: '김치는 배추와 고춧가루로 만드는 한국의 전통 음식입니다.' },
  { id: 'ko-3', lang: 'ko', text: '부산 해운대 해수욕장은 여름마다 관광객으로 붐빕니다.' },
  { id: 'ko-4', lang: 'ko', text: '한글은 세종대왕이 창제한 문자입니다.' },
  { id: 'ar-1', lang: 'ar', text: 'زرت المكتبات العامة في المدينة وقرأت كتبا عن التاريخ.' },
  { id: 'ar-2', lang: 'ar', text: 'يعمل المهندسون على بناء جسر جديد فوق النهر.' },
  { id: 'ar-3', lang: 'ar', text: 'تزرع العائلة أشجار الزيتون في الحقول القريبة من القرية.' },
  { id: 'ar-4', lang: 'ar', text: 'سافر الطلاب إلى القاهرة لزيارة الأهرامات والمتحف المصري.' },
  {
    id: 'de-5',
    lang: 'de',
    text: 'Die Krankenversicherung übernimmt die Kosten im Kinderkrankenhaus. Vom Hauptbahnhof fährt ein Bus direkt zur Notaufnahme.',
  },
  {
    id: 'de-6',
    lang: 'de',
    text: 'Eine Ente schwimmt mit ihren Küken auf dem Teich hinter der Mühle.',
  },
  {
    id: 'de-7',
    lang: 'de',
    text: 'Die Elemente der Tabelle werden von den Studierenden nach Gruppen geordnet und einzeln geprüft.',
  },
  { id: 'th-1', lang: 'th', text: 'แมวดำนอนอยู่บนโซฟาทั้งวัน ตอนกลางคืนมันออกไปจับหนูในสวน' },
  { id: 'th-2', lang: 'th', text: 'ห้องสมุดประชาชนเปิดให้บริการทุกวันและมีหนังสือภาษาต่างประเทศมากมาย' },
  { id: 'th-3', lang: 'th', text: 'รถไฟฟ้าในกรุงเทพมหานครช่วยให้การเดินทางสะดวกและรวดเร็วขึ้น' },
  { id: 'th-4', lang: 'th', text: 'ต้มยำกุ้งเป็นอาหารไทยที่มีรสเปรี้ยวและเผ็ด นักท่องเที่ยวชอบมาก' },
  // English distractors that share nothing but topics.
  { id: 'en-1', lang: 'en', text: 'Cats sleep most of the day and hunt mice in the garden at night.' },
  { id: 'en-2', lang: 'en', text: 'The giant panda lives in the mountains of Sichuan and eats bamboo.' },
  {
    id: 'en-3',
    lang: 'en',
    text: 'The public library offers books in several languages and reading courses for adults.',
  },
];

export const ML_QUERIES: MlQuery[] = [
  { lang: 'de', kind: 'exact', text: 'Katzen', answer: 'de-1' },
  { lang: 'de', kind: 'exact', text: 'Bahnhof', answer: 'de-2' },
  { lang: 'de', kind: 'inflected', text: 'Katze', answer: 'de-1' },
  { lang: 'de', kind: 'inflected', text: 'Kind', answer: 'de-3' },
  { lang: 'de', kind: 'inflected', text: 'Zug', answer: 'de-2' },
  { lang: 'de', kind: 'exact', text: 'Donaudampfschifffahrt', answer: 'de-4' },
  // Compound parts (heads and modifiers) of words in the documents.
  { lang: 'de', kind: 'substring', text: 'Schifffahrt', answer: 'de-4' },
  { lang: 'de', kind: 'substring', text: 'Verkehr', answer: 'de-4' },
  { lang: 'de', kind: 'substring', text: 'Versicherung', answer: 'de-5' },
  { lang: 'de', kind: 'substring', text: 'Krankenhaus', answer: 'de-5' },
  { lang: 'de', kind: 'substring', text: 'Aufnahme', answer: 'de-5' },
  // A word inside another only by its inflection (Elem|ente) is no part: the duck comes first.
  { lang: 'de', kind: 'exact', text: 'Ente', answer: 'de-6' },
  { lang: 'th', kind: 'substring', text: 'แมว', answer: 'th-1' },
  { lang: 'th', kind: 'substring', text: 'โซฟา', answer: 'th-1' },
  { lang: 'th', kind: 'substring', text: 'ห้องสมุด', answer: 'th-2' },
  { lang: 'th', kind: 'substring', text: 'หนังสือ', answer: 'th-2' },
  { lang: 'th', kind: 'substring', text: 'รถไฟฟ้า', answer: 'th-3' },
  { lang: 'th', kind: 'substring', text: 'กรุงเทพ', answer: 'th-3' },
  { lang: 'th', kind: 'substring', text: 'ต้มยำกุ้ง', answer: 'th-4' },
  { lang: 'th', kind: 'exact', text: 'อาหารไทย', answer: 'th-4' },
  { lang: 'fr', kind: 'exact', text: 'boulanger', answer: 'fr-2' },
  { lang: 'fr', kind: 'exact', text: 'hôpital', answer: 'fr-4' },
  { lang: 'fr', kind: 'inflected', text: 'maison', answer: 'fr-1' },
  { lang: 'fr', kind: 'inflected', text: 'étudiant', answer: 'fr-3' },
  { lang: 'fr', kind: 'inflected', text: 'hopital', answer: 'fr-4' },
  { lang: 'es', kind: 'exact', text: 'agricultor', answer: 'es-2' },
  { lang: 'es', kind: 'exact', text: 'biblioteca', answer: 'es-4' },
  { lang: 'es', kind: 'inflected', text: 'ciudad', answer: 'es-1' },
  { lang: 'es', kind: 'inflected', text: 'naranja', answer: 'es-2' },
  { lang: 'es', kind: 'inflected', text: 'niño', answer: 'es-3' },
  { lang: 'ru', kind: 'exact', text: 'вениками', answer: 'ru-1' },
  { lang: 'ru', kind: 'exact', text: 'метро', answer: 'ru-4' },
  { lang: 'ru', kind: 'inflected', text: 'веник', answer: 'ru-1' },
  { lang: 'ru', kind: 'inflected', text: 'студент', answer: 'ru-2' },
  { lang: 'ru', kind: 'inflected', text: 'рыбак', answer: 'ru-3' },
  { lang: 'ru', kind: 'inflected', text: 'экзамен', answer: 'ru-2' },
  { lang: 'zh', kind: 'substring', text: '熊猫', answer: 'zh-1' },
  { lang: 'zh', kind: 'substring', text: '地铁', answer: 'zh-2' },
  { lang: 'zh', kind: 'substring', text: '绿茶', answer: 'zh-3' },
  { lang: 'zh', kind: 'substring', text: '长城', answer: 'zh-4' },
  { lang: 'zh', kind: 'exact', text: '大熊猫', answer: 'zh-1' },
  { lang: 'zh', kind: 'substring', text: '竹子', answer: 'zh-1' },
  { lang: 'ja', kind: 'substring', text: '東京タワー', answer: 'ja-1' },
  { lang: 'ja', kind: 'substring', text: '桜', answer: 'ja-2' },
  { lang: 'ja', kind: 'substring', text: '新幹線', answer: 'ja-3' },
  { lang: 'ja', kind: 'substring', text: '寿司', answer: 'ja-4' },
  { lang: 'ja', kind: 'substring', text: '花見', answer: 'ja-2' },
  { lang: 'ko', kind: 'substring', text: '도서관', answer: 'ko-1' },
  { lang: 'ko', kind: 'substring', text: '김치', answer: 'ko-2' },
  { lang: 'ko', kind: 'substring', text: '해수욕장', answer: 'ko-3' },
  { lang: 'ko', kind: 'exact', text: '한글은', answer: 'ko-4' },
  { lang: 'ko', kind: 'substring', text: '세종대왕', answer: 'ko-4' },
  { lang: 'ar', kind: 'exact', text: 'المكتبات', answer: 'ar-1' },
  { lang: 'ar', kind: 'inflected', text: 'مكتبة', answer: 'ar-1' },
  { lang: 'ar', kind: 'exact', text: 'جسر', answer: 'ar-2' },
  { lang: 'ar', kind: 'inflected', text: 'الزيتون', answer: 'ar-3' },
  { lang: 'ar', kind: 'exact', text: 'القاهرة', answer: 'ar-4' },
];
