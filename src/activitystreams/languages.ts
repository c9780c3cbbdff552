// The transcript languages of the spec (BCP 47) and the platform's subtitle codes for them
// (`LanguageCodeName`: ISO 639-3 + optional script + region, PLATFORM.md §2.12).

/** Exactly the 35 values of service-spec.md "Path parameters", in its order. */
export const TRANSCRIPT_LANGUAGES = [
  'ar-SA', 'az-AZ', 'ca-ES', 'ceb-PH', 'cs-CZ', 'da-DK', 'de-DE', 'en-US', 'es-ES', 'et-EE', 'fi-FI',
  'fil-PH', 'fr-FR', 'ga-IE', 'he-IL', 'hr-HR', 'id-ID', 'it-IT', 'ja-JP', 'ko-KR', 'lv-LV', 'lt-LT',
  'ms-MY', 'nb-NO', 'nl-NL', 'pl-PL', 'pt-PT', 'ru-RU', 'sw-SW', 'sv-SE', 'th-TH', 'uk-UA', 'vi-VN',
  'zh-Hans-CN', 'zh-Hant-CN',
] as const;

export type TranscriptLanguage = (typeof TRANSCRIPT_LANGUAGES)[number];

/** fil-PH and msa-MY were not seen in samples; they follow the same ISO 639-3 rule. */
const TO_PLATFORM: Readonly<Record<TranscriptLanguage, string>> = {
  'ar-SA': 'ara-SA', 'az-AZ': 'aze-AZ', 'ca-ES': 'cat-ES', 'ceb-PH': 'ceb-PH', 'cs-CZ': 'ces-CZ',
  'da-DK': 'dan-DK', 'de-DE': 'deu-DE', 'en-US': 'eng-US', 'es-ES': 'spa-ES', 'et-EE': 'est-EE',
  'fi-FI': 'fin-FI', 'fil-PH': 'fil-PH', 'fr-FR': 'fra-FR', 'ga-IE': 'gle-IE', 'he-IL': 'heb-IL',
  'hr-HR': 'hrv-HR', 'id-ID': 'ind-ID', 'it-IT': 'ita-IT', 'ja-JP': 'jpn-JP', 'ko-KR': 'kor-KR',
  'lv-LV': 'lav-LV', 'lt-LT': 'lit-LT', 'ms-MY': 'msa-MY', 'nb-NO': 'nob-NO', 'nl-NL': 'nld-NL',
  'pl-PL': 'pol-PL', 'pt-PT': 'por-PT', 'ru-RU': 'rus-RU', 'sw-SW': 'swa-SW', 'sv-SE': 'swe-SE',
  'th-TH': 'tha-TH', 'uk-UA': 'ukr-UA', 'vi-VN': 'vie-VN', 'zh-Hans-CN': 'cmn-Hans-CN',
  'zh-Hant-CN': 'cmn-Hant-CN',
};

const FROM_PLATFORM: ReadonlyMap<string, TranscriptLanguage> = new Map(
  TRANSCRIPT_LANGUAGES.map((language) => [TO_PLATFORM[language].toLowerCase(), language]),
);

export function isTranscriptLanguage(value: string): value is TranscriptLanguage {
  return (TRANSCRIPT_LANGUAGES as readonly string[]).includes(value);
}

export function toPlatformLanguage(language: TranscriptLanguage): string {
  return TO_PLATFORM[language];
}

/** The spec code of a platform subtitle code, or undefined for languages outside the spec's list. */
export function fromPlatformLanguage(code: string): TranscriptLanguage | undefined {
  return FROM_PLATFORM.get(code.toLowerCase());
}
