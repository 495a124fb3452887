import { useState } from 'react';
import { useQuery } from 'urql';
import { reportFormCreatePath } from '../../paths';
import { Dialog } from '../../ui/dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { errorMessage } from '../../ui/errors';
import { SearchField } from '../../ui/list-controls';
import { Link } from '../../ui/link';
import { Pagination } from '../../ui/pagination';
import { useDebounced } from '../../ui/use-debounced';
import { SEARCH_DEBOUNCE_MS } from '../../ui/use-list-address';
import { TEMPLATES_QUERY, type TemplateTile } from './forms-api';

/** Two template tiles, then View More (spec §9). */
const TILE_TEMPLATES = 2;
const PICKER_PAGE_SIZE = 10;

type TemplateList = { reportFormTemplates: { total: number; list: TemplateTile[] } };

type CreateTilesProps = { organisationID?: string | undefined; withTemplates: boolean };

/** 'Create Your Own', the first templates, and a picker for the rest: each opens the builder. */
export function CreateTiles({ organisationID, withTemplates }: CreateTilesProps) {
  const [picking, setPicking] = useState(false);
  const [result] = useQuery<TemplateList>({ query: TEMPLATES_QUERY, variables: { search: null, limit: TILE_TEMPLATES, offset: 0 }, pause: !withTemplates });
  const templates = result.data?.reportFormTemplates;
  return (
    <section className="create-tiles" aria-label="Create a report form">
      <ul className="create-tiles__list">
        <li>
          <Link to={reportFormCreatePath(organisationID)} className="create-tile create-tile--own">
            <span className="create-tile__plus" aria-hidden="true">+</span>
            <span>Create Your Own</span>
          </Link>
        </li>
        {templates?.list.map((template) => (
          <li key={template.id}>
            <Link to={reportFormCreatePath(organisationID, template.id)} className="create-tile">
              <span className="create-tile__kind">Template</span>
              <span>{template.name}</span>
            </Link>
          </li>
        ))}
        {templates && templates.total > TILE_TEMPLATES && (
          <li>
            <button type="button" className="create-tile create-tile--more" onClick={() => setPicking(true)}>
              View More
            </button>
          </li>
        )}
      </ul>
      <ErrorBanner message={errorMessage(result.error)} />
      {picking && <TemplatePicker organisationID={organisationID} onClose={() => setPicking(false)} />}
    </section>
  );
}

function TemplatePicker({ organisationID, onClose }: { organisationID?: string | undefined; onClose: () => void }) {
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const search = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [result] = useQuery<TemplateList>({
    query: TEMPLATES_QUERY,
    variables: { search: search || null, limit: PICKER_PAGE_SIZE, offset: (page - 1) * PICKER_PAGE_SIZE },
  });
  const templates = result.data?.reportFormTemplates;
  return (
    <Dialog title="Choose a Template" onClose={onClose} wide>
      <SearchField
        id="template-picker-search"
        value={text}
        placeholder="Search templates"
        onChange={(value) => {
          setText(value);
          setPage(1);
        }}
      />
      <ErrorBanner message={errorMessage(result.error)} />
      {templates === undefined && !result.error && <p className="muted">Loading…</p>}
      {templates?.list.length === 0 && <p className="muted">No templates found</p>}
      {templates && templates.list.length > 0 && (
        <ul className="template-picker">
          {templates.list.map((template) => (
            <li key={template.id}>
              <Link to={reportFormCreatePath(organisationID, template.id)} className="template-picker__item">
                {template.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {templates && <Pagination page={page} pageSize={PICKER_PAGE_SIZE} total={templates.total} onPage={setPage} label="Template pages" />}
    </Dialog>
  );
}
