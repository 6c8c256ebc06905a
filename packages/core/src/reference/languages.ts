/**
 * ISO 639-1 alpha-2 language codes with English names: the widget's `lang`
 * setting must be one of these (lower case). Deprecated codes (in, iw, ji, jw,
 * mo, sh) are not accepted.
 */
export interface Language {
  readonly code: string;
  readonly name: string;
}

const TABLE =
  'aa Afar|ab Abkhazian|ae Avestan|af Afrikaans|ak Akan|am Amharic|an Aragonese|ar Arabic|as Assamese|av Avaric|' +
  'ay Aymara|az Azerbaijani|ba Bashkir|be Belarusian|bg Bulgarian|bi Bislama|bm Bambara|bn Bengali|bo Tibetan|' +
  'br Breton|bs Bosnian|ca Catalan|ce Chechen|ch Chamorro|co Corsican|cr Cree|cs Czech|cu Church Slavic|cv Chuvash|' +
  'cy Welsh|da Danish|de German|dv Divehi|dz Dzongkha|ee Ewe|el Greek|en English|eo Esperanto|es Spanish|' +
  'et Estonian|eu Basque|fa Persian|ff Fulah|fi Finnish|fj Fijian|fo Faroese|fr French|fy Western Frisian|ga Irish|' +
  'gd Scottish Gaelic|gl Galician|gn Guarani|gu Gujarati|gv Manx|ha Hausa|he Hebrew|hi Hindi|ho Hiri Motu|' +
  'hr Croatian|ht Haitian Creole|hu Hungarian|hy Armenian|hz Herero|ia Interlingua|id Indonesian|ie Interlingue|' +
  'ig Igbo|ii Sichuan Yi|ik Inupiaq|io Ido|is Icelandic|it Italian|iu Inuktitut|ja Japanese|jv Javanese|' +
  'ka Georgian|kg Kongo|ki Kikuyu|kj Kuanyama|kk Kazakh|kl Kalaallisut|km Khmer|kn Kannada|ko Korean|kr Kanuri|' +
  'ks Kashmiri|ku Kurdish|kv Komi|kw Cornish|ky Kyrgyz|la Latin|lb Luxembourgish|lg Ganda|li Limburgish|ln Lingala|' +
  'lo Lao|lt Lithuanian|lu Luba-Katanga|lv Latvian|mg Malagasy|mh Marshallese|mi Maori|mk Macedonian|' +
  'ml Malayalam|mn Mongolian|mr Marathi|ms Malay|mt Maltese|my Burmese|na Nauru|nb Norwegian Bokmål|' +
  'nd North Ndebele|ne Nepali|ng Ndonga|nl Dutch|nn Norwegian Nynorsk|no Norwegian|nr South Ndebele|nv Navajo|' +
  'ny Chichewa|oc Occitan|oj Ojibwa|om Oromo|or Odia|os Ossetian|pa Punjabi|pi Pali|pl Polish|ps Pashto|' +
  'pt Portuguese|qu Quechua|rm Romansh|rn Rundi|ro Romanian|ru Russian|rw Kinyarwanda|sa Sanskrit|sc Sardinian|' +
  'sd Sindhi|se Northern Sami|sg Sango|si Sinhala|sk Slovak|sl Slovenian|sm Samoan|sn Shona|so Somali|' +
  'sq Albanian|sr Serbian|ss Swati|st Southern Sotho|su Sundanese|sv Swedish|sw Swahili|ta Tamil|te Telugu|' +
  'tg Tajik|th Thai|ti Tigrinya|tk Turkmen|tl Tagalog|tn Tswana|to Tongan|tr Turkish|ts Tsonga|tt Tatar|tw Twi|' +
  'ty Tahitian|ug Uyghur|uk Ukrainian|ur Urdu|uz Uzbek|ve Venda|vi Vietnamese|vo Volapük|wa Walloon|wo Wolof|' +
  'xh Xhosa|yi Yiddish|yo Yoruba|za Zhuang|zh Chinese|zu Zulu';

export const LANGUAGES: readonly Language[] = Object.freeze(
  TABLE.split('|').map((entry) => {
    const space = entry.indexOf(' ');
    return Object.freeze({ code: entry.slice(0, space), name: entry.slice(space + 1) });
  }),
);

const CODES = new Set(LANGUAGES.map((l) => l.code));

/** True for an ISO 639-1 alpha-2 code written in lower case, e.g. "en". */
export function isLanguageCode(code: string): boolean {
  return CODES.has(code);
}

/**
 * The languages the payment page (the service's widget and landing page) is
 * offered in: what the settings let an owner choose, and what "Site language"
 * is mapped to. The spec says only "ISO 639-1 alpha-2, default en" and lists
 * none, so this is the project's list: the languages the project's sandbox
 * renders its payment page in (docs/decisions.md, "Widget language"). Any
 * other ISO 639-1 code is still a valid `lang` (the service accepts it), but
 * the project shows English for it.
 */
export const PAYMENT_PAGE_LANGUAGES: readonly Language[] = Object.freeze(['en', 'de', 'es', 'fr'].map((code) => LANGUAGES.find((l) => l.code === code)!));

const PAYMENT_PAGE_CODES = new Set(PAYMENT_PAGE_LANGUAGES.map((l) => l.code));

/** True for a code of PAYMENT_PAGE_LANGUAGES ("en", "de", "es", "fr"). */
export function isPaymentPageLanguage(code: string): boolean {
  return PAYMENT_PAGE_CODES.has(code);
}

/** The language the payment page is shown in for a `lang` (absent or unlisted: English). */
export function paymentPageLanguage(code: string | undefined): string {
  return code !== undefined && PAYMENT_PAGE_CODES.has(code) ? code : 'en';
}
