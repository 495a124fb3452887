import { useEffect, useState } from 'react';
import { useClient, type CombinedError } from 'urql';
import type { TranslationLanguage } from '../../../../../../api/shared/translation';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { SelectField } from '../../../ui/select-field';
import { languageLabel, useTranslationLanguages } from '../../../ui/translation-languages';
import { ANSWERS_TRANSLATE_QUERY, CONSOLE_LANGUAGE, MESSAGE_TRANSLATE_QUERY, type AnswerTranslation, type MessageTranslation } from './reporter-translation-api';
import './reporter-translation.css';

// Staff's Translate action (docs/decisions/046-staff-translation.md), loaded only on reports where it
// is offered. Translations are asked for on demand and kept only in this screen's state: the original
// always stays on screen beside them, and each translation carries its language for screen readers.

const MACHINE_NOTICE = "Machine translation by your organisation's own translation server. Check the original before acting on it.";

/** The organisation's form language when the provider offers it, else the console's, else the first offered. */
function defaultLanguage(formLanguage: string, languages: readonly TranslationLanguage[]): string {
  const offered = (code: string) => languages.find((language) => language.code.toLowerCase() === code.toLowerCase())?.code;
  return offered(formLanguage) ?? offered(CONSOLE_LANGUAGE) ?? languages[0]?.code ?? '';
}

type LanguageChoiceProps = { id: string; formLanguage: string; value: string; onChange: (code: string) => void };

/** 'Translate into' with the provider's languages; chooses the default once the list is known. */
export function TranslateLanguageChoice({ id, formLanguage, value, onChange }: LanguageChoiceProps) {
  const languages = useTranslationLanguages();
  useEffect(() => {
    if (!value && languages) onChange(defaultLanguage(formLanguage, languages));
  }, [value, languages, formLanguage, onChange]);
  if (languages === undefined) return null;
  if (languages === null) return <p className="muted">Translations are not available right now. Please try again later.</p>;
  const options = languages.map((language) => ({ value: language.code, label: languageLabel(language.code, languages) }));
  return <SelectField id={id} label="Translate into" className="staff-translation__language" value={value} options={options} onChange={onChange} />;
}

/** One on-demand translation: its result, the server's refusal, and whether it is on its way. */
function useTranslate<T>(query: string, pick: (data: Record<string, unknown>) => T) {
  const client = useClient();
  const [state, setState] = useState<{ busy: boolean; result?: T; error?: CombinedError }>({ busy: false });
  const run = async (variables: { id: string; lang: string }) => {
    setState({ busy: true });
    // network-only: a translation is asked of the server each time, as it is never kept there either.
    const answer = await client.query(query, variables, { requestPolicy: 'network-only' }).toPromise();
    setState(answer.data ? { busy: false, result: pick(answer.data) } : { busy: false, error: answer.error });
  };
  return { ...state, run, clear: () => setState({ busy: false }) };
}

/** The reporter's text answers, translated on request and shown beside the originals. */
export function AnswersTranslation({ reportID, formLanguage }: { reportID: string; formLanguage: string }) {
  const [lang, setLang] = useState('');
  const translation = useTranslate(ANSWERS_TRANSLATE_QUERY, (data) => data.reportSubmissionTranslate as { lang: string; answers: AnswerTranslation[] });
  const languages = useTranslationLanguages();
  return (
    <section className="staff-translation stack" aria-labelledby="answers-translation-title">
      <h3 id="answers-translation-title" className="answers__title">
        Translate the reporter's answers
      </h3>
      <div className="staff-translation__controls">
        <TranslateLanguageChoice id="answers-translate-language" formLanguage={formLanguage} value={lang} onChange={setLang} />
        <button type="button" className="button button--secondary" disabled={!lang || translation.busy} onClick={() => void translation.run({ id: reportID, lang })}>
          {translation.busy ? 'Translating…' : 'Translate'}
        </button>
      </div>
      <ErrorBanner message={errorMessage(translation.error)} />
      <div role="status" className="stack">
        {translation.result && translation.result.answers.length === 0 && <p className="muted">The reporter wrote no text answers to translate.</p>}
        {translation.result && translation.result.answers.length > 0 && (
          <>
            <ul className="staff-translation__list">
              {translation.result.answers.map((answer) => (
                <li key={answer.widgetID} className="staff-translation__item">
                  <p className="staff-translation__question">{answer.title}</p>
                  <TextsSideBySide original={answer.originalText} translated={answer.translatedText} lang={translation.result!.lang} languageName={languageLabel(translation.result!.lang, languages)} />
                </li>
              ))}
            </ul>
            <p className="muted">{MACHINE_NOTICE}</p>
          </>
        )}
      </div>
    </section>
  );
}

function TextsSideBySide({ original, translated, lang, languageName }: { original: string; translated: string | null; lang: string; languageName: string }) {
  return (
    <dl className="staff-translation__texts">
      <div>
        <dt>Original</dt>
        <dd>{original}</dd>
      </div>
      <div>
        <dt>Translation · {languageName}</dt>
        {translated === null ? <dd className="muted">This text could not be translated.</dd> : <dd lang={lang}>{translated}</dd>}
      </div>
    </dl>
  );
}

/** A chat message's Translate button, and its translation under the message once asked for. */
export function MessageTranslate({ messageID, lang }: { messageID: string; lang: string }) {
  const translation = useTranslate(MESSAGE_TRANSLATE_QUERY, (data) => data.reportConversationMessageTranslate as MessageTranslation);
  const languages = useTranslationLanguages();
  const shown = translation.result;
  return (
    <div className="chat__translation">
      <button
        type="button"
        className="link-button"
        disabled={(!lang && !shown) || translation.busy}
        onClick={() => (shown ? translation.clear() : void translation.run({ id: messageID, lang }))}
      >
        {translation.busy ? 'Translating…' : shown ? 'Hide translation' : 'Translate'}
      </button>
      <ErrorBanner message={errorMessage(translation.error)} />
      <div role="status">
        {shown && (
          <div className="chat__translation-text">
            <p className="chat__meta">Translation · {languageLabel(shown.lang, languages)}</p>
            {shown.translatedText === null ? <p className="muted">This message could not be translated.</p> : <p lang={shown.lang}>{shown.translatedText}</p>}
          </div>
        )}
      </div>
    </div>
  );
}
