import { useEffect, useState } from 'react';
import type { RichTextProps, RichTextView } from './rich-text-view';
import './rich-text.css';

/**
 * A form message (rich-text-tree.ts says how it is read). The renderer is fetched the first time a
 * message has text, so pages whose forms have none never download it; until then the place stays
 * empty, the same as for an empty message.
 */
export function RichText(props: RichTextProps) {
  const View = useRichTextView(props.html.trim() !== '');
  return View ? <View {...props} /> : null;
}

let view: typeof RichTextView | undefined;
let loading: Promise<typeof RichTextView> | undefined;

function loadView(): Promise<typeof RichTextView> {
  loading ??= import('./rich-text-view').then(
    (module) => (view = module.RichTextView),
    (error: unknown) => {
      // A failed fetch is tried again the next time a message needs it.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function useRichTextView(needed: boolean): typeof RichTextView | undefined {
  const [loaded, setLoaded] = useState(() => view);
  useEffect(() => {
    if (!needed || loaded) return;
    let current = true;
    loadView().then(
      (component) => current && setLoaded(() => component),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [needed, loaded]);
  return loaded;
}
