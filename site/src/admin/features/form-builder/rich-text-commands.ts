import { lift, setBlockType, toggleMark, wrapIn } from '@milkdown/kit/prose/commands';
import type { MarkType, Node as ProseNode, NodeType } from '@milkdown/kit/prose/model';
import { liftListItem, wrapInList } from '@milkdown/kit/prose/schema-list';
import type { Command, EditorState } from '@milkdown/kit/prose/state';
import { RICH_TEXT_MAX_INDENT } from '../../../../../api/shared/rich-text';
import type { Alignment } from './rich-text-schema';

/**
 * The toolbar's actions as ProseMirror commands, and what the toolbar shows as pressed for a selection.
 * Names follow the schema in rich-text-schema.ts.
 */

export type MarkName = 'strong' | 'emphasis' | 'underline' | 'strike_through' | 'noTranslate';
export type ColourMark = 'textColour' | 'backgroundColour';
export type ListName = 'bullet_list' | 'ordered_list';

export interface ToolbarState {
  marks: Record<MarkName, boolean>;
  heading: 0 | 1 | 2;
  list: ListName | null;
  blockquote: boolean;
  align: Alignment;
  indent: number;
  link: string | null;
  colours: Record<ColourMark, string | null>;
}

const MARKS: MarkName[] = ['strong', 'emphasis', 'underline', 'strike_through', 'noTranslate'];

function markAt(state: EditorState, type: MarkType) {
  const { from, to, empty, $from } = state.selection;
  if (empty) return type.isInSet(state.storedMarks ?? $from.marks()) ?? null;
  let found: ReturnType<MarkType['isInSet']> = undefined;
  state.doc.nodesBetween(from, to, (node) => {
    found ??= type.isInSet(node.marks);
    return !found;
  });
  return found ?? null;
}

function isMarkActive(state: EditorState, type: MarkType): boolean {
  const { from, to, empty } = state.selection;
  return empty ? Boolean(markAt(state, type)) : state.doc.rangeHasMark(from, to, type);
}

function ancestor(state: EditorState, name: string): ProseNode | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth -= 1) {
    if ($from.node(depth).type.name === name) return $from.node(depth);
  }
  return null;
}

function innermostList(state: EditorState): ListName | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth -= 1) {
    const name = $from.node(depth).type.name;
    if (name === 'bullet_list' || name === 'ordered_list') return name;
  }
  return null;
}

export function toolbarState(state: EditorState): ToolbarState {
  const schema = state.schema;
  const block = state.selection.$from.parent;
  const listItem = ancestor(state, 'list_item');
  const marks = Object.fromEntries(MARKS.map((name) => [name, isMarkActive(state, schema.marks[name]!)])) as ToolbarState['marks'];
  const colour = (name: ColourMark) => (markAt(state, schema.marks[name]!)?.attrs.colour as string | undefined) ?? null;
  return {
    marks,
    heading: block.type.name === 'heading' ? (Math.min(block.attrs.level, 2) as 1 | 2) : 0,
    list: innermostList(state),
    blockquote: Boolean(ancestor(state, 'blockquote')),
    align: (block.attrs.align as Alignment | null) ?? 'left',
    indent: (listItem ?? block).attrs.indent ?? 0,
    link: (markAt(state, schema.marks.link!)?.attrs.href as string | undefined) ?? null,
    colours: { textColour: colour('textColour'), backgroundColour: colour('backgroundColour') },
  };
}

export function toggleMarkNamed(name: MarkName): Command {
  return (state, dispatch) => toggleMark(state.schema.marks[name]!)(state, dispatch);
}

/** Headers 1 and 2 toggle back to a paragraph; alignment and indent stay with the block. */
export function toggleHeading(level: 1 | 2): Command {
  return (state, dispatch) => {
    const block = state.selection.$from.parent;
    const keep = { align: block.attrs.align ?? null, indent: block.attrs.indent ?? 0 };
    const same = block.type.name === 'heading' && block.attrs.level === level;
    const target = same ? state.schema.nodes.paragraph! : state.schema.nodes.heading!;
    return setBlockType(target, same ? keep : { ...keep, level })(state, dispatch);
  };
}

/** The same list button again lifts the items out; the other list button switches the list's kind. */
export function toggleList(name: ListName): Command {
  return (state, dispatch) => {
    const current = innermostList(state);
    const listType: NodeType = state.schema.nodes[name]!;
    if (current === name) return liftListItem(state.schema.nodes.list_item!)(state, dispatch);
    if (current) {
      const { $from } = state.selection;
      for (let depth = $from.depth; depth > 0; depth -= 1) {
        if ($from.node(depth).type.name !== current) continue;
        if (dispatch) dispatch(state.tr.setNodeMarkup($from.before(depth), listType));
        return true;
      }
    }
    return wrapInList(listType)(state, dispatch);
  };
}

export const toggleBlockquote: Command = (state, dispatch) =>
  ancestor(state, 'blockquote') ? lift(state, dispatch) : wrapIn(state.schema.nodes.blockquote!)(state, dispatch);

/** Visits the blocks alignment and indent apply to: text blocks, and list items rather than their paragraphs. */
function updateBlocks(state: EditorState, update: (node: ProseNode) => Record<string, unknown> | null): ReturnType<EditorState['tr']['setNodeMarkup']> | null {
  const { from, to } = state.selection;
  const tr = state.tr;
  let changed = false;
  state.doc.nodesBetween(from, to, (node, pos, parent) => {
    const isListItem = node.type.name === 'list_item';
    const isBlock = node.type.name === 'paragraph' || node.type.name === 'heading';
    if (!isListItem && !isBlock) return true;
    const attrs = update(node);
    if (attrs && (isListItem || parent?.type.name !== 'list_item' || 'align' in attrs)) {
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs });
      changed = true;
    }
    return true;
  });
  return changed ? tr : null;
}

export function setAlign(align: Alignment): Command {
  return (state, dispatch) => {
    const value = align === 'left' ? null : align;
    const tr = updateBlocks(state, (node) => (node.type.name === 'list_item' ? null : { align: value }));
    if (tr && dispatch) dispatch(tr);
    return Boolean(tr);
  };
}

export function changeIndent(step: 1 | -1): Command {
  return (state, dispatch) => {
    const tr = updateBlocks(state, (node) => {
      const indent = Math.min(Math.max((node.attrs.indent ?? 0) + step, 0), RICH_TEXT_MAX_INDENT);
      return indent === node.attrs.indent ? null : { indent };
    });
    if (tr && dispatch) dispatch(tr);
    return Boolean(tr);
  };
}

/** Sets (or with null removes) a mark with attributes over the selection, or for what is typed next. */
function setMarkWith(name: string, attrs: Record<string, unknown> | null): Command {
  return (state, dispatch) => {
    const type = state.schema.marks[name]!;
    const { from, to, empty } = state.selection;
    if (!dispatch) return true;
    if (empty) {
      const without = type.removeFromSet(state.storedMarks ?? state.selection.$from.marks());
      dispatch(state.tr.setStoredMarks(attrs ? type.create(attrs).addToSet(without) : without));
      return true;
    }
    const tr = state.tr.removeMark(from, to, type);
    if (attrs) tr.addMark(from, to, type.create(attrs));
    dispatch(tr.scrollIntoView());
    return true;
  };
}

export function setColour(name: ColourMark, colour: string | null): Command {
  return setMarkWith(name, colour ? { colour } : null);
}

/** With nothing selected, a link needs text to sit on: the address itself is inserted. */
export function setLink(href: string | null): Command {
  return (state, dispatch) => {
    const type = state.schema.marks.link!;
    if (href && state.selection.empty) {
      if (dispatch) dispatch(state.tr.insert(state.selection.from, state.schema.text(href, [type.create({ href })])));
      return true;
    }
    if (!href && state.selection.empty) {
      const { $from } = state.selection;
      const child = $from.parent.childAfter($from.parentOffset);
      if (!child.node || !type.isInSet(child.node.marks)) return false;
      const start = $from.start() + child.offset;
      if (dispatch) dispatch(state.tr.removeMark(start, start + child.node.nodeSize, type));
      return true;
    }
    return setMarkWith('link', href ? { href } : null)(state, dispatch);
  };
}
