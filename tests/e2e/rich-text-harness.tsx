import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RichTextEditor } from '../../site/src/admin/features/form-builder/rich-text-editor';

/**
 * Mounts the rich-text editor alone, as the form builder will, for tests/e2e/rich-text-editor.test.ts.
 * The value the editor last reported is mirrored into an output element, so a test reads what the
 * builder would receive; a value set from outside arrives as a new prop, as a reloaded form would.
 */
function Harness() {
  const initial = new URLSearchParams(location.search).get('value') ?? '';
  const [value, setValue] = useState(initial);
  const [reported, setReported] = useState<string | null>(null);
  return (
    <main>
      <h1>Rich text</h1>
      <RichTextEditor
        id="message"
        label="Welcome message"
        value={value}
        onChange={(html) => {
          setValue(html);
          setReported(html);
        }}
      />
      <output id="reported" data-reported={reported === null ? 'no' : 'yes'}>
        {reported ?? ''}
      </output>
      <button type="button" id="load-outside" onClick={() => setValue('<p>Loaded <strong>from outside</strong></p>')}>
        Load from outside
      </button>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
