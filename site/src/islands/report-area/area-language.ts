import { useMemo } from 'react';
import { formTextName } from '../../../../api/shared/translation';
import { readPlaceholderSetup } from '../../lib/reporter-language';
import type { ShownText } from '../../lib/translation-apply';
import type { PageLanguage } from '../use-page-language';
import { usePageLanguage } from '../use-page-language';
import type { ReporterSubmission } from './area-api';

// The follow-up area in the reporter's language (docs/decisions/047-reporter-language-follow-up.md):
// only the organisation's own texts here are translated, the form's name and its message for where the
// report stands. The reporter's answers and the chat stay as typed; the product's words stay as they are.

const FORM_NAME = formTextName('name');

/** The area's organisation texts as the reporter reads them. */
export type AreaTexts = { formName: ShownText; standingMessage: ShownText };

export type AreaLanguage = PageLanguage & { texts: AreaTexts; unavailable: boolean };

export function useAreaLanguage(submission: ReporterSubmission): AreaLanguage {
  const setup = useMemo(readPlaceholderSetup, []);
  const { formName, standingMessage, standingMessageName } = submission;
  const originals = useMemo(() => {
    const texts = new Map([[FORM_NAME, formName]]);
    if (standingMessageName) texts.set(standingMessageName, standingMessage);
    return texts;
  }, [formName, standingMessage, standingMessageName]);
  const language = usePageLanguage(setup, submission.organisationID, submission.formID, [...originals.keys()]);
  const { loaded } = language;
  const applied = useMemo(() => (loaded && !loaded.failed ? loaded.module.translateTexts(originals, loaded.translations, loaded.lang) : undefined), [loaded, originals]);
  const shown = (name: string | null, original: string): ShownText => (name && applied?.texts.get(name)) || { text: original };
  return {
    ...language,
    texts: { formName: shown(FORM_NAME, formName), standingMessage: shown(standingMessageName, standingMessage) },
    unavailable: Boolean(loaded?.failed || applied?.missing),
  };
}
