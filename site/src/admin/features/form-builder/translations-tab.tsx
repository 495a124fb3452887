import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { TextField } from '../../../lib/text-field';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { SelectField } from '../../ui/select-field';
import { TranslationRow } from './translation-row';
import { languageLabel, TRANSLATIONS_QUERY, useTranslationLanguages, type FormTranslations, type ReviewItem } from './translations-api';
import './translations.css';

type Props = { formID: string; organisationID: string; dirty: boolean };

const SETTING_QUERY = 'query FormTranslationSetting($id: ID!) { organisation(id: $id) { id formLanguage enableFormTranslations } }';

/**
 * The form editor's Translations tab (issue 14): per language, every text of the saved form beside
 * its machine translation, with staff's own translation, a review mark and what changed since.
 */
export function TranslationsTab({ formID, organisationID, dirty }: Props) {
  const [setting] = useQuery<{ organisation: { formLanguage: string; enableFormTranslations: boolean } }>({ query: SETTING_QUERY, variables: { id: organisationID } });
  const languages = useTranslationLanguages();
  const [chosen, setChosen] = useState('');
  const organisation = setting.data?.organisation;
  if (setting.error) return <ErrorBanner message={errorMessage(setting.error)} />;
  if (!organisation || languages === undefined) return <p className="muted" role="status">Loading…</p>;
  if (!organisation.enableFormTranslations) {
    return <Empty title="Form translations are off for this organisation">Once a super admin turns on form translations in the organisation's settings, reporters can read this form in their own language and you can review each text here.</Empty>;
  }
  const others = (languages ?? []).filter((language) => language.code.toLowerCase() !== organisation.formLanguage.toLowerCase());
  const lang = chosen || others[0]?.code || '';
  return (
    <section className="stack" aria-labelledby="translations-title">
      <h2 id="translations-title" className="visually-hidden">
        Translations
      </h2>
      {dirty && <p className="alert alert--warning">You have unsaved changes: translations are of the form as last saved. Save it to review the new texts.</p>}
      <p className="muted">This form is written in {languageLabel(organisation.formLanguage, languages)}. Reporters who choose another language read the texts below; yours are used before the machine's.</p>
      {others.length > 0 ? (
        <SelectField id="translations-language" label="Language" className="translations__language" value={lang} options={others.map((language) => ({ value: language.code, label: languageLabel(language.code, languages) }))} onChange={setChosen} />
      ) : (
        <LanguageCodeForm onChoose={setChosen} />
      )}
      {lang && <Review key={lang} formID={formID} lang={lang} />}
    </section>
  );
}

/** Without the provider's list: the code typed in. */
function LanguageCodeForm({ onChoose }: { onChoose: (code: string) => void }) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChoose(code.trim());
  };
  return (
    <form className="translations__code" onSubmit={submit}>
      <TextField id="translations-language-code" label="Language code (such as de, fr or zh-Hans)" value={code} onChange={setCode} />
      <button type="submit" className="button button--secondary">
        Show
      </button>
    </form>
  );
}

function Review({ formID, lang }: { formID: string; lang: string }) {
  const [result] = useQuery<{ reportFormTranslations: FormTranslations }>({ query: TRANSLATIONS_QUERY, variables: { id: formID, lang }, requestPolicy: 'network-only' });
  const [saved, setSaved] = useState<Record<string, ReviewItem>>({});
  const view = result.data?.reportFormTranslations;
  if (result.error) return <ErrorBanner message={errorMessage(result.error)} />;
  if (!view) return <p className="muted" role="status">Loading translations…</p>;
  if (!view.providerConfigured) {
    return <Empty title="No translation service is set up">Lantern translates forms through a translation service its operator connects: a self-hosted LibreTranslate server, DeepL or Google Cloud Translation. Ask whoever runs Lantern for your organisation to set one up.</Empty>;
  }
  if (view.items.length === 0) return <Empty title="Nothing to translate yet">Add questions or messages to the form and save it: each of its texts appears here.</Empty>;
  return (
    <div className="stack translations__list">
      {view.items.map((item) => {
        const current = saved[item.name] ?? item;
        return <TranslationRow key={`${item.name}:${current.originalText}`} formID={formID} lang={lang} item={current} onSaved={(next) => setSaved((all) => ({ ...all, [item.name]: next }))} />;
      })}
    </div>
  );
}

function Empty({ title, children }: { title: string; children: string }) {
  return (
    <div className="card stack translations__empty">
      <h3 className="card__title">{title}</h3>
      <p>{children}</p>
    </div>
  );
}
