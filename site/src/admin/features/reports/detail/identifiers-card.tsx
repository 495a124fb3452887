import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { TextField } from '../../../../lib/text-field';
import { ErrorBanner } from '../../../ui/error-banner';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { can, type Viewer } from '../../../viewer';
import { TAGS_QUERY, type Tag } from '../reports-api';
import { ASSIGN_TAGS_MUTATION, REFERENCE_MUTATION, type ReportDetail } from './detail-api';

type IdentifiersCardProps = { viewer: Viewer; report: ReportDetail; organisationID?: string | undefined };

/** 'Report Identifiers': the organisation's own reference and tags for the report. */
export function IdentifiersCard({ viewer, report, organisationID }: IdentifiersCardProps) {
  const [reference, setReference] = useState(report.internalReference ?? '');
  const [tagIDs, setTagIDs] = useState(() => new Set(report.tags.map((tag) => tag.id)));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const mayListTags = can(viewer, 'TagList');
  const [tags] = useQuery<{ tags: { list: Tag[] } }>({ query: TAGS_QUERY, variables: { organisationID: organisationID ?? null }, pause: !mayListTags });
  const [, saveReference] = useMutation(REFERENCE_MUTATION);
  const [, saveTags] = useMutation(ASSIGN_TAGS_MUTATION);

  // Tags already on the report stay listed even if the tag list does not offer them (archived since).
  const offered = [...(tags.data?.tags.list ?? [])];
  for (const tag of report.tags) if (!offered.some((known) => known.id === tag.id)) offered.push(tag);

  const toggle = (id: string) => {
    const next = new Set(tagIDs);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setTagIDs(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(undefined);
    const referenceResult = await saveReference({ id: report.id, internalReference: reference.trim() });
    const tagsResult = referenceResult.error ? undefined : await saveTags({ id: report.id, tags: [...tagIDs] });
    setSaving(false);
    const problem = referenceResult.error ?? tagsResult?.error;
    if (problem) return setError(errorMessage(problem));
    notify('Identifiers have been updated successfully');
  };

  return (
    <section className="card stack" aria-labelledby="report-identifiers-title">
      <h2 id="report-identifiers-title" className="card__title">
        Report Identifiers
      </h2>
      <form className="stack" noValidate onSubmit={submit}>
        <ErrorBanner message={error} />
        <TextField id="internal-reference" label="Internal Reference" value={reference} onChange={setReference} />
        <fieldset className="choice-list">
          <legend className="field__label">Tags</legend>
          {offered.length === 0 && <p className="muted">{tags.fetching ? 'Loading…' : 'No tags found'}</p>}
          <div className="tag-choices">
            {offered.map((tag) => (
              <label key={tag.id} className="tag-choice">
                <input type="checkbox" checked={tagIDs.has(tag.id)} onChange={() => toggle(tag.id)} />
                <span>{tag.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
