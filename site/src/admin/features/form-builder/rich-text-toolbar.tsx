import type { ReactNode } from 'react';
import type { Command } from '@milkdown/kit/prose/state';
import {
  changeIndent,
  setAlign,
  setColour,
  setLink,
  toggleBlockquote,
  toggleHeading,
  toggleList,
  toggleMarkNamed,
  type MarkName,
  type ToolbarState,
} from './rich-text-commands';
import { RichTextColour } from './rich-text-colour';
import { RichTextLink } from './rich-text-link';
import { ALIGNMENTS } from './rich-text-schema';
import { RICH_TEXT_MAX_INDENT } from '../../../../../api/shared/rich-text';
import { PALETTE } from '../../../forms/theme-defaults';

/** Each button's visible face and its spoken name; the face is hidden from assistive technology. */
const MARK_BUTTONS: { mark: MarkName; label: string; face: string }[] = [
  { mark: 'strong', label: 'Bold', face: 'B' },
  { mark: 'emphasis', label: 'Italic', face: 'I' },
  { mark: 'underline', label: 'Underline', face: 'U' },
  { mark: 'strike_through', label: 'Strikethrough', face: 'S' },
];

const ALIGN_LABELS = { left: 'Align left', center: 'Align centre', right: 'Align right', justify: 'Justify' } as const;
const ALIGN_FACES = { left: '⇤', center: '↔', right: '⇥', justify: '☰' } as const;

/**
 * A toolbar button named by its label. The face (B, H1, •) is drawn by CSS from data-face, so what a
 * voice-control user sees never competes with the spoken name.
 */
function ToolButton(props: { label: string; face: string; pressed?: boolean; disabled?: boolean; onRun(): void; className?: string }) {
  return (
    <button
      type="button"
      className={props.className}
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled}
      // Keeps the editor's selection where it is when the button is clicked with a mouse.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onRun}
      data-face={props.face}
    />
  );
}

function Group(props: { label: string; children: ReactNode }) {
  return (
    <div className="rich-text__group" role="group" aria-label={props.label}>
      {props.children}
    </div>
  );
}

export function RichTextToolbar(props: { state: ToolbarState; disabled?: boolean; controls: string; run(command: Command, keepFocus?: boolean): void }) {
  const { state, disabled, run } = props;
  return (
    <div className="rich-text__toolbar" role="toolbar" aria-label="Formatting" aria-controls={props.controls}>
      <Group label="Text style">
        {MARK_BUTTONS.map((button) => (
          <ToolButton face={button.face} key={button.mark} label={button.label} className={`rich-text__mark--${button.mark}`} pressed={state.marks[button.mark]} disabled={disabled} onRun={() => run(toggleMarkNamed(button.mark))} />
        ))}
      </Group>
      <Group label="Headers and blocks">
        <ToolButton face="H1" label="Header 1" pressed={state.heading === 1} disabled={disabled} onRun={() => run(toggleHeading(1))} />
        <ToolButton face="H2" label="Header 2" pressed={state.heading === 2} disabled={disabled} onRun={() => run(toggleHeading(2))} />
        <ToolButton face="❝" label="Blockquote" pressed={state.blockquote} disabled={disabled} onRun={() => run(toggleBlockquote)} />
      </Group>
      <Group label="Lists and indent">
        <ToolButton face="•" label="Bullet list" pressed={state.list === 'bullet_list'} disabled={disabled} onRun={() => run(toggleList('bullet_list'))} />
        <ToolButton face="1." label="Numbered list" pressed={state.list === 'ordered_list'} disabled={disabled} onRun={() => run(toggleList('ordered_list'))} />
        <ToolButton face="⇠" label="Decrease indent" disabled={disabled || state.indent === 0} onRun={() => run(changeIndent(-1))} />
        <ToolButton face="⇢" label="Increase indent" disabled={disabled || state.indent >= RICH_TEXT_MAX_INDENT} onRun={() => run(changeIndent(1))} />
      </Group>
      <Group label="Alignment">
        {ALIGNMENTS.map((align) => (
          <ToolButton face={ALIGN_FACES[align]} key={align} label={ALIGN_LABELS[align]} pressed={state.align === align} disabled={disabled} onRun={() => run(setAlign(align))} />
        ))}
      </Group>
      <Group label="Colours">
        <RichTextColour label="Text colour" value={state.colours.textColour} fallback={PALETTE.text} disabled={disabled} onApply={(colour) => run(setColour('textColour', colour), false)} />
        <RichTextColour label="Background colour" value={state.colours.backgroundColour} fallback={PALETTE.surface} disabled={disabled} onApply={(colour) => run(setColour('backgroundColour', colour), false)} />
      </Group>
      <Group label="Link and translation">
        <RichTextLink href={state.link} disabled={disabled} onApply={(href) => run(setLink(href))} />
        {/* Letters every font has: a CJK face would show as an empty box where no CJK font is installed. */}
        <ToolButton face="NT" label="Do not translate" className="rich-text__no-translate" pressed={state.marks.noTranslate} disabled={disabled} onRun={() => run(toggleMarkNamed('noTranslate'))} />
      </Group>
    </div>
  );
}
