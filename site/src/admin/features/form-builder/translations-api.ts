import type { TranslationFormat } from '../../../../../api/shared/translation';
export { languageLabel, useTranslationLanguages } from '../../ui/translation-languages';

// The Translations tab's calls (docs/decisions/045-translation-review.md).

export type ReviewItem = {
  name: string;
  label: string;
  format: TranslationFormat;
  originalText: string;
  machineText: string | null;
  overrideText: string | null;
  reviewed: boolean;
  reviewedAt: string | null;
  changedSince: { previousOriginalText: string; previousTranslatedText: string | null } | null;
};

export type FormTranslations = {
  lang: string;
  formLanguage: string;
  translationsEnabled: boolean;
  providerConfigured: boolean;
  items: ReviewItem[];
};

const ITEM_FIELDS = 'name label format originalText machineText overrideText reviewed reviewedAt changedSince { previousOriginalText previousTranslatedText }';
export const TRANSLATIONS_QUERY = `query FormTranslations($id: ID!, $lang: String!) {
  reportFormTranslations(reportFormID: $id, lang: $lang) { lang formLanguage translationsEnabled providerConfigured items { ${ITEM_FIELDS} } } }`;
export const TRANSLATION_UPDATE = `mutation FormTranslationUpdate($input: ReportFormTranslationUpdateInput!) { reportFormTranslationUpdate(input: $input) { ${ITEM_FIELDS} } }`;

export const TRANSLATION_SAVED = 'Translation has been saved';
