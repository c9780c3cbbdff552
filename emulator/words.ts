// Word banks the dataset draws names, captions, comments and subtitle lines from; mixed scripts
// and emoji on purpose, so clients meet the unicode the real platform serves.

export const NAME_PARTS = [
  'luna', 'mika', 'zoe', 'kai', 'noah', 'emma', 'leo', 'aya', 'sofia', 'yuki', 'omar', 'lena',
  'max', 'nina', 'ravi', 'chen', 'ana', 'ivan', 'maya', 'theo', 'sara', 'hugo', 'lila', 'jun',
] as const;

export const NAME_TOPICS = [
  'travels', 'cooks', 'dance', 'fit', 'art', 'vlogs', 'music', 'pets', 'tech', 'style', 'eats',
  'gaming', 'diy', 'garden', 'comedy', 'beauty', 'cars', 'books', 'skate', 'surf',
] as const;

export const NICK_DECOR = ['', ' ✨', ' 🌸', ' 🇯🇵', ' 🇧🇷', ' 🔥', ' 🎧', '🐾', ' ☕', ' 🇩🇪', ' 💫', ''] as const;

export const NICK_FORMS = [
  (a: string, b: string) => `${cap(a)} ${cap(b)}`,
  (a: string, b: string) => `${cap(a)} | ${b}`,
  (a: string) => `${cap(a)}`,
  (a: string, b: string) => `${a.toUpperCase()} · ${b}`,
  () => '小邹旅行',
  () => 'Ünal Çelik',
  () => 'Дарья Ким',
  () => 'さくら',
  () => '김민지',
  () => 'José Núñez',
] as const;

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export const BIOS = [
  'Daily clips from the road 🚐', 'Recipes in 60 seconds 🍜', '📍 Berlin | collabs via mail',
  'just vibes', 'Cat dad. Coffee first ☕', '', 'Ich tanze, also bin ich 💃',
  '旅行とごはんの記録', 'Nueva receta cada viernes 🌮', 'Tech tips you actually need',
] as const;

export const TAGS = [
  'fyp', 'foryou', 'viral', 'travel', 'food', 'dance', 'comedy', 'pets', 'cats', 'dogs', 'art',
  'diy', 'fitness', 'music', 'fashion', 'makeup', 'cooking', 'recipe', 'tech', 'gaming', 'nature',
  'beach', 'summer', 'winter', 'coffee', 'books', 'booktok', 'skate', 'surf', 'cars', 'garden',
  'mountains', 'streetfood', 'japan', 'berlin', 'paris', 'nyc', 'tokyo', 'brasil', 'mexico',
  '中国高铁🚅', 'ramen', 'sushi', 'vegan', 'workout', 'yoga', 'running', 'hiking', 'camping',
  'photography', 'film', 'anime', 'kpop', 'tutorial', 'lifehack', 'learnontiktok', 'science',
  'history', 'funny', 'prank', 'duet', 'trend', 'challenge', 'love', 'family', 'baby', 'wedding',
  'sunset', 'rain', 'snow', 'city', 'roadtrip', 'vanlife', 'café', 'pâtisserie', 'café_au_lait',
] as const;

export const CAPTIONS: Record<string, readonly string[]> = {
  en: ['Wait for the end 😂', 'POV: you finally found the spot', 'Day 12 of trying this recipe',
    'Nobody talks about this trick', 'Sunset never gets old 🌅', 'Rate this from 1 to 10'],
  de: ['Warte bis zum Ende 😂', 'Der beste Döner der Stadt?', 'Tag 3 im Bulli 🚐'],
  fr: ['Attendez la fin 😂', 'La meilleure boulangerie de Paris 🥐', 'Petit tour au marché'],
  es: ['Espera al final 😂', 'Receta de la abuela 🌮', 'El atardecer más bonito'],
  ja: ['最後まで見てね😂', '東京の朝ごはん🍙', '猫がかわいすぎる'],
  'zh-Hans': ['高铁穿过跨海大桥', '今天的晚饭🍜', '这个地方太美了'],
  pt: ['Espera o final 😂', 'Praia perfeita 🏖️', 'Receita fácil de bolo'],
};

export const COMMENTS = [
  'so nice ❤️❤️❤️', 'Wait what 😂😂', 'where is this?', 'love you 😘', 'first!', 'beautiful',
  'Mashallah 🥰🥰', 'this is so underrated', 'need the recipe pls 🙏', 'Hmm', 'nice 👍👍',
  'Trop bien !', 'Qué bonito 😍', 'すごい！', '太美了', 'Wie cool ist das denn', 'part 2??',
  'I watched this 10 times', '🥀🥀🥀💔', 'the cat at 0:07 😭', 'who else is here in 2025?',
] as const;

export const REPLIES = [
  'same 😂', 'right??', 'facts', 'ikr', 'hahaha', 'agreed 💯', 'link?', 'Danke!', 'exactement',
  'jajaja', 'これ', '同意', 'no way', 'this ^', '@ you need to see this',
] as const;

export const SONGS = [
  ['Golden Hour', 'JVKE'], ['Midnight Drive', 'Neon Coast'], ['Lo-fi Morning', 'Cafe Beats'],
  ['Sakura Wind', 'Kaito'], ['Baila Conmigo', 'Rio Norte'], ['Sommerregen', 'Die Wellen'],
  ['Electric Feel', 'Night Arcade'], ['Ocean Eyes (sped up)', 'Blue Hour'],
] as const;

/** Subtitle lines per ISO 639-1 language, cycled per video so transcripts vary. */
export const SUBTITLE_LINES: Record<string, readonly string[]> = {
  en: ['Hey everyone, welcome back.', 'Today we are trying something new.', 'Look at this view.',
    'I did not expect that at all.', 'Let me know in the comments.', 'See you in the next one.'],
  de: ['Hallo zusammen, willkommen zurück.', 'Heute probieren wir etwas Neues.',
    'Schaut euch diese Aussicht an.', 'Damit habe ich nicht gerechnet.',
    'Schreibt es in die Kommentare.', 'Bis zum nächsten Mal.'],
  fr: ['Salut tout le monde, bon retour.', 'Aujourd’hui on essaie quelque chose de nouveau.',
    'Regardez cette vue.', 'Je ne m’attendais pas du tout à ça.', 'Dites-le-moi en commentaire.',
    'À la prochaine.'],
  es: ['Hola a todos, bienvenidos de nuevo.', 'Hoy probamos algo nuevo.', 'Mirad estas vistas.',
    'No me lo esperaba para nada.', 'Decídmelo en los comentarios.', 'Nos vemos en el próximo.'],
  ja: ['みなさん、おかえりなさい。', '今日は新しいことに挑戦します。', 'この景色を見てください。',
    'まったく予想していませんでした。', 'コメントで教えてください。', 'また次回お会いしましょう。'],
  'zh-Hans': ['大家好，欢迎回来。', '今天我们尝试一些新东西。', '看看这个风景。', '我完全没想到。',
    '在评论里告诉我。', '下期再见。'],
  'zh-Hant': ['大家好，歡迎回來。', '今天我們嘗試一些新東西。', '看看這個風景。', '我完全沒想到。',
    '在評論裡告訴我。', '下期再見。'],
  pt: ['Olá a todos, bem-vindos de volta.', 'Hoje vamos tentar algo novo.', 'Olhem esta vista.',
    'Eu não esperava isso.', 'Digam nos comentários.', 'Até o próximo.'],
  it: ['Ciao a tutti, bentornati.', 'Oggi proviamo qualcosa di nuovo.', 'Guardate che vista.',
    'Non me lo aspettavo proprio.', 'Fatemelo sapere nei commenti.', 'Alla prossima.'],
  ko: ['여러분 안녕하세요, 다시 오신 걸 환영해요.', '오늘은 새로운 걸 해볼게요.', '이 풍경 좀 보세요.',
    '전혀 예상 못 했어요.', '댓글로 알려주세요.', '다음에 만나요.'],
};

/**
 * Subtitle languages: platform LanguageCodeName, LanguageID (PLATFORM.md §2.12), the service's
 * BCP 47 code, and the key into SUBTITLE_LINES.
 */
export const SUBTITLE_LANGUAGES = [
  { code: 'eng-US', id: '2', bcp47: 'en-US', lines: 'en' },
  { code: 'deu-DE', id: '20', bcp47: 'de-DE', lines: 'de' },
  { code: 'fra-FR', id: '7', bcp47: 'fr-FR', lines: 'fr' },
  { code: 'spa-ES', id: '9', bcp47: 'es-ES', lines: 'es' },
  { code: 'jpn-JP', id: '3', bcp47: 'ja-JP', lines: 'ja' },
  { code: 'cmn-Hans-CN', id: '1', bcp47: 'zh-Hans-CN', lines: 'zh-Hans' },
  { code: 'cmn-Hant-CN', id: '36', bcp47: 'zh-Hant-CN', lines: 'zh-Hant' },
  { code: 'por-PT', id: '8', bcp47: 'pt-PT', lines: 'pt' },
  { code: 'ita-IT', id: '26', bcp47: 'it-IT', lines: 'it' },
  { code: 'kor-KR', id: '4', bcp47: 'ko-KR', lines: 'ko' },
] as const;

export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];

/** Caption language (item textLanguage) → spoken-language subtitle entry index. */
export const SPOKEN: Record<string, number> = { en: 0, de: 1, fr: 2, es: 3, ja: 4, 'zh-Hans': 5, pt: 7 };
