import { useQuery } from 'urql';

// Staff's Translate action on a reporter's words (docs/decisions/046-staff-translation.md). This file
// is in the report screen's chunk: only the availability check; the action itself is lazy.

const AVAILABLE_QUERY = `query ReporterTranslationAvailable($id: ID!) {
  reporterTranslationAvailable(reportSubmissionID: $id) { available formLanguage } }`;

export const ANSWERS_TRANSLATE_QUERY = `query ReportAnswersTranslate($id: ID!, $lang: String!) {
  reportSubmissionTranslate(id: $id, lang: $lang) { reportSubmissionID lang answers { widgetID title originalText translatedText } } }`;

export const MESSAGE_TRANSLATE_QUERY = `query ReportMessageTranslate($id: ID!, $lang: String!) {
  reportConversationMessageTranslate(id: $id, lang: $lang) { messageID lang originalText translatedText } }`;

export type AnswerTranslation = { widgetID: string; title: string; originalText: string; translatedText: string | null };
export type MessageTranslation = { messageID: string; lang: string; originalText: string; translatedText: string | null };

/** The console is written in English: the language offered when the organisation's is not on the list. */
export const CONSOLE_LANGUAGE = 'en';

/**
 * The organisation's form language when staff may translate this report's words, else null (not
 * offered: no self-hosted provider, translations off, or the check failed). Undefined while loading.
 */
export function useReporterTranslation(reportID: string): string | null | undefined {
  const [result] = useQuery<{ reporterTranslationAvailable: { available: boolean; formLanguage: string } }>({ query: AVAILABLE_QUERY, variables: { id: reportID } });
  if (result.fetching && !result.data) return undefined;
  const availability = result.data?.reporterTranslationAvailable;
  return availability?.available ? availability.formLanguage : null;
}
