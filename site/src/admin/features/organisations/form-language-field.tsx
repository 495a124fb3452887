import { TextField } from '../../../lib/text-field';
import { SelectField } from '../../ui/select-field';
import { languageLabel, useTranslationLanguages } from '../../ui/translation-languages';

type Props = { value: string; onChange: (code: string) => void; error?: string | undefined };

/**
 * The language the organisation writes its forms in: a choice from the provider's languages when the
 * installation offers them, else the code typed in ('en', 'de', 'zh-Hans').
 */
export function FormLanguageField({ value, onChange, error }: Props) {
  const languages = useTranslationLanguages();
  if (languages === undefined) return <p className="muted">Loading languages…</p>;
  if (!languages) return <TextField id="organisation-form-language" label="Form language (a code such as en, de or zh-Hans)" value={value} onChange={onChange} error={error} />;
  // The current code stays choosable even when the provider does not list it.
  const options = languages.some((language) => language.code === value) ? languages : [{ code: value, name: value }, ...languages];
  return (
    <SelectField
      id="organisation-form-language"
      label="Form language"
      className="organisation-font"
      value={value}
      options={options.map((language) => ({ value: language.code, label: languageLabel(language.code, languages) }))}
      onChange={onChange}
    />
  );
}
