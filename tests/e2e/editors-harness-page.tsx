import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { FormTheme } from '../../api/shared/theme';
import { RichTextEditor } from '../../site/src/admin/features/form-builder/rich-text-editor';
import { ThemeEditor } from '../../site/src/admin/features/form-builder/theme-editor';

/**
 * Mounts one of the form builder's editors alone, as the builder will, for the editors' browser tests.
 * The value an editor last reported is mirrored into an output element, so a test reads what the
 * builder would receive; a value set from outside arrives as a new prop, as a reloaded form would.
 */
const params = new URLSearchParams(location.search);

function Reported(props: { value: string | null }) {
  return (
    <output id="reported" data-reported={props.value === null ? 'no' : 'yes'}>
      {props.value ?? ''}
    </output>
  );
}

function RichTextHarness() {
  const [value, setValue] = useState(params.get('value') ?? '');
  const [reported, setReported] = useState<string | null>(null);
  const [disabled, setDisabled] = useState(false);
  return (
    <main>
      <h1>Rich text</h1>
      <RichTextEditor
        id="message"
        label="Welcome message"
        value={value}
        disabled={disabled}
        onChange={(html) => {
          setValue(html);
          setReported(html);
        }}
      />
      <Reported value={reported} />
      <button type="button" id="load-outside" onClick={() => setValue('<p>Loaded <strong>from outside</strong></p>')}>
        Load from outside
      </button>
      <button type="button" onClick={() => setDisabled(!disabled)}>
        Toggle disabled
      </button>
    </main>
  );
}

function ThemeHarness() {
  const [theme, setTheme] = useState<FormTheme>(JSON.parse(params.get('theme') ?? '{}') as FormTheme);
  const [reported, setReported] = useState<string | null>(null);
  return (
    <main>
      <h1>Theme</h1>
      <ThemeEditor
        value={theme}
        onChange={(next) => {
          setTheme(next);
          setReported(JSON.stringify(next));
        }}
      />
      <Reported value={reported} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(params.get('component') === 'theme' ? <ThemeHarness /> : <RichTextHarness />);
