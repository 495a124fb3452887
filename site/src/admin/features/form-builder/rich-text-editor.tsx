import { useEffect, useRef, useState } from 'react';
import { Editor, defaultValueCtx, editorViewCtx, editorViewOptionsCtx, rootCtx } from '@milkdown/kit/core';
import { history } from '@milkdown/kit/plugin/history';
import { keymap } from '@milkdown/kit/prose/keymap';
import { splitListItem } from '@milkdown/kit/prose/schema-list';
import { Plugin, type Command } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';
import { $prose } from '@milkdown/kit/utils';
import { Milkdown, MilkdownProvider, useEditor } from '@milkdown/react';
import { changeIndent, toggleMarkNamed, toolbarState, type ToolbarState } from './rich-text-commands';
import { docToHtml, htmlToDoc, inertBody } from './rich-text-html';
import { richTextSchema } from './rich-text-schema';
import { RichTextToolbar } from './rich-text-toolbar';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  id: string;
  label: string;
  value: string;
  onChange(html: string): void;
  disabled?: boolean;
}

const shortcuts = $prose(() =>
  keymap({
    'Mod-b': toggleMarkNamed('strong'),
    'Mod-i': toggleMarkNamed('emphasis'),
    'Mod-u': toggleMarkNamed('underline'),
    'Mod-Shift-x': toggleMarkNamed('strike_through'),
    'Mod-]': changeIndent(1),
    'Mod-[': changeIndent(-1),
    Enter: (state, dispatch) => splitListItem(state.schema.nodes.list_item!)(state, dispatch),
    'Shift-Enter': (state, dispatch) => {
      if (dispatch) dispatch(state.tr.replaceSelectionWith(state.schema.nodes.hardbreak!.create()).scrollIntoView());
      return true;
    },
  }),
);

function EditorBody(props: RichTextEditorProps) {
  const labelId = `${props.id}-label`;
  const [toolbar, setToolbar] = useState<ToolbarState | null>(null);
  const viewRef = useRef<EditorView | null>(null);
  const lastValue = useRef(props.value);
  const onChange = useRef(props.onChange);
  const disabled = useRef(Boolean(props.disabled));
  // Set while a value from outside is loaded, which must not echo back as a change.
  const loading = useRef(false);
  onChange.current = props.onChange;
  disabled.current = Boolean(props.disabled);

  useEditor((root) => {
    // Reports every change of the document as HTML and keeps the toolbar's pressed states current.
    const watcher = $prose(
      () =>
        new Plugin({
          view: (view) => {
            viewRef.current = view;
            setToolbar(toolbarState(view.state));
            return {
              update: (updated, previous) => {
                setToolbar(toolbarState(updated.state));
                if (loading.current || previous.doc.eq(updated.state.doc)) return;
                const html = docToHtml(updated.state.schema, updated.state.doc);
                if (html === lastValue.current) return;
                lastValue.current = html;
                onChange.current(html);
              },
              destroy: () => {
                viewRef.current = null;
              },
            };
          },
        }),
    );
    return Editor.make()
      .config((ctx) => {
        ctx.set(rootCtx, root);
        ctx.set(defaultValueCtx, { type: 'html', dom: inertBody(lastValue.current) });
        ctx.update(editorViewOptionsCtx, (options) => ({
          ...options,
          editable: () => !disabled.current,
          attributes: { id: props.id, 'aria-labelledby': labelId, 'aria-multiline': 'true', class: 'rich-text__content' },
        }));
      })
      .use(richTextSchema)
      .use(history)
      .use(shortcuts)
      .use(watcher);
  }, []);

  // A value from outside (a reloaded form, a reset) replaces the document without echoing back.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || props.value === lastValue.current) return;
    lastValue.current = props.value;
    const doc = htmlToDoc(view.state.schema, props.value);
    loading.current = true;
    view.dispatch(view.state.tr.replaceWith(0, view.state.doc.content.size, doc.content).setMeta('addToHistory', false));
    loading.current = false;
  }, [props.value]);

  useEffect(() => {
    viewRef.current?.setProps({});
  }, [props.disabled]);

  const run = (command: Command, keepFocus = true) => {
    const view = viewRef.current;
    if (!view || disabled.current) return;
    command(view.state, view.dispatch);
    if (keepFocus) view.focus();
  };

  return (
    <div className="rich-text" aria-disabled={props.disabled || undefined}>
      <div className="rich-text__label" id={labelId} onClick={() => viewRef.current?.focus()}>
        {props.label}
      </div>
      {toolbar ? <RichTextToolbar state={toolbar} disabled={props.disabled} controls={props.id} run={run} /> : null}
      <Milkdown />
    </div>
  );
}

/** A form message's editor (spec §5): reads and writes the HTML of api/shared/rich-text.ts. */
export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <MilkdownProvider>
      <EditorBody {...props} />
    </MilkdownProvider>
  );
}

export default RichTextEditor;
