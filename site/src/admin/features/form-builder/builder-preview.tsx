import { useMemo, useState } from 'react';
import { derivePages, pageHasContent, visibleWidgetIds, type AnswerMap, type FormWidget } from '../../../../../api/shared/form-definition';
import type { FormTheme } from '../../../../../api/shared/theme';
import { FormPage } from '../../../forms/form-page';
import { themeStyle } from '../../../forms/theme';
import type { FormSettings } from './builder-api';
import { fontData, useOrganisationLook, WelcomePreview } from './builder-welcome-preview';

type BuilderPreviewProps = {
  widgets: readonly FormWidget[];
  theme: FormTheme;
  /** A form's settings (templates have none): the welcome step is previewed too. */
  settings?: FormSettings;
  /** Whose font and logo the reporters' pages use. */
  organisationID?: string;
};

/**
 * The form as reporters get it, drawn by their own renderer with the form's theme: one block per
 * page, in order. Answers clicked here are the preview's alone, so conditions can be tried out.
 */
export function BuilderPreview({ widgets, theme, settings, organisationID }: BuilderPreviewProps) {
  const look = useOrganisationLook(settings ? organisationID : undefined);
  const [answers, setAnswers] = useState<AnswerMap>({});
  const pages = useMemo(() => derivePages(widgets), [widgets]);
  const visible = useMemo(() => visibleWidgetIds(widgets, answers), [widgets, answers]);
  const answered = Object.keys(answers).length > 0;

  return (
    <section className="card stack builder-preview" aria-labelledby="builder-preview-title">
      <div className="builder-preview__head">
        <h2 id="builder-preview-title" className="card__title">
          Preview
        </h2>
        <button type="button" className="button button--secondary button--small" disabled={!answered} onClick={() => setAnswers({})}>
          Clear Answers
        </button>
      </div>
      <p className="muted">Answer here to try the conditions; nothing is saved.</p>
      <div className="builder-preview__reporter stack" data-font={fontData(look)} style={themeStyle(theme)}>
      {settings && <WelcomePreview settings={settings} look={look} />}
      {pages.length === 0 && <p className="muted">Add widgets to see the form.</p>}
      {pages.map((page) => (
        <section key={page.index} className="builder-preview__page" aria-label={`Page ${page.index + 1}: ${page.name}`}>
          <h3 className="builder-preview__page-title">
            Page {page.index + 1}: {page.name}
            {!pageHasContent(page, visible) && <span className="muted"> (skipped for these answers)</span>}
          </h3>
          <FormPage widgets={page.widgets} formWidgets={widgets} answers={answers} theme={theme} onChange={(id, answer) => setAnswers({ ...answers, [id]: answer })} />
        </section>
      ))}
      </div>
    </section>
  );
}
