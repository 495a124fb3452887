import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { FormWidget } from '../../../../../api/shared/form-definition';
import { moveProblem, TYPE_LABELS, type BuilderAction } from './builder-store';
import { WidgetEditor } from './widget-editor';

type WidgetListProps = {
  widgets: readonly FormWidget[];
  /** Why the last drop was refused (the store's word), shown and announced. */
  refusal: string | null;
  dispatch: (action: BuilderAction) => void;
  problems: Readonly<Record<string, string>>;
  locked: boolean;
  openId: string | null;
  addedId: string | null;
  onOpen: (id: string | null) => void;
  onConditions: (id: string) => void;
};

/** How a widget is named to someone who cannot see the list: its type, position and title. */
function describe(widget: FormWidget | undefined): string {
  if (!widget) return 'Widget';
  const title = widget.title.trim();
  return title ? `${TYPE_LABELS[widget.type]} "${title}"` : TYPE_LABELS[widget.type];
}

const INSTRUCTIONS =
  'To reorder a widget, press Space or Enter on its Move button to pick it up. Use the up and down arrow keys to move it, Space or Enter to drop it there, or Escape to put it back.';

type ItemProps = Omit<WidgetListProps, 'widgets' | 'refusal' | 'openId' | 'addedId' | 'onOpen'> & {
  widget: FormWidget;
  position: number;
  total: number;
  open: boolean;
  added: boolean;
  onToggle: () => void;
};

function SortableWidget({ widget, position, total, open, added, onToggle, dispatch, problems, locked, onConditions }: ItemProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: widget.id, disabled: locked });
  const style = { transform: CSS.Transform.toString(transform), transition };
  const name = describe(widget);
  const pageBreak = widget.type === 'Section' && widget.pageName !== null;
  const rules = widget.condition?.rules.length ?? 0;
  return (
    <li ref={setNodeRef} style={style} className={`builder-widget${isDragging ? ' builder-widget--dragging' : ''}${widget.type === 'Section' ? ' builder-widget--section' : ''}`}>
      <div className="builder-widget__bar">
        <button type="button" ref={setActivatorNodeRef} className="builder-widget__handle" aria-label={`Move ${name}, position ${position} of ${total}`} disabled={locked} {...attributes} {...listeners}>
          <span aria-hidden="true">⠿</span>
        </button>
        <button type="button" className="builder-widget__summary" aria-expanded={open} aria-controls={`widget-${widget.id}-panel`} onClick={onToggle}>
          <span className="builder-widget__type">
            {position}. {pageBreak ? 'Page break' : TYPE_LABELS[widget.type]}
            {rules > 0 && ` · ${rules} condition rule${rules === 1 ? '' : 's'}`}
          </span>
          <span className="builder-widget__title">{widget.title.trim() || 'Untitled'}</span>
        </button>
      </div>
      {open && (
        <div id={`widget-${widget.id}-panel`} className="builder-widget__panel stack">
          <WidgetEditor widget={widget} dispatch={dispatch} problems={problems} disabled={locked} autoFocus={added} />
          <div className="actions">
            <button type="button" className="button button--secondary button--small" disabled={locked} onClick={() => onConditions(widget.id)}>
              Conditions{rules > 0 ? ` (${rules})` : ''}
            </button>
            <button type="button" className="button button--secondary button--small" disabled={locked} onClick={() => dispatch({ type: 'duplicate', id: widget.id })}>
              Duplicate
            </button>
            <button type="button" className="button button--secondary button--small" disabled={locked} onClick={() => dispatch({ type: 'remove', id: widget.id })}>
              Remove
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * The form's widgets in order, reordered by dragging with a pointer or with the keyboard. A drop
 * that would put a condition above its question is refused and the reason said aloud.
 */
export function WidgetList({ widgets, refusal, dispatch, problems, locked, openId, addedId, onOpen, onConditions }: WidgetListProps) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = widgets.map((widget) => widget.id);
  const find = (id: UniqueIdentifier) => widgets.find((widget) => widget.id === id);
  const at = (id: UniqueIdentifier | undefined) => (id === undefined ? -1 : ids.indexOf(String(id)));
  const problemOf = (active: UniqueIdentifier, over: UniqueIdentifier | undefined) => (over === undefined ? null : moveProblem(widgets, at(active), at(over)));

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${describe(find(active.id))}, position ${at(active.id) + 1} of ${widgets.length}.`,
    onDragOver: ({ active, over }) => (over ? `${describe(find(active.id))} is over position ${at(over.id) + 1} of ${widgets.length}.` : `${describe(find(active.id))} is no longer over the list.`),
    onDragEnd: ({ active, over }) => {
      const problem = problemOf(active.id, over?.id);
      if (problem) return `${problem} ${describe(find(active.id))} stays at position ${at(active.id) + 1}.`;
      return over ? `${describe(find(active.id))} dropped at position ${at(over.id) + 1} of ${widgets.length}.` : `${describe(find(active.id))} dropped where it was.`;
    },
    onDragCancel: ({ active }) => `Moving cancelled. ${describe(find(active.id))} stays at position ${at(active.id) + 1}.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) dispatch({ type: 'move', from: at(active.id), to: at(over.id) });
  };

  return (
    <>
      <p className="builder-refusal">
        {refusal}
      </p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}>
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ol className="builder-widgets" aria-label="Form widgets">
            {widgets.map((widget, index) => (
              <SortableWidget
                key={widget.id}
                widget={widget}
                position={index + 1}
                total={widgets.length}
                open={openId === widget.id}
                added={addedId === widget.id}
                onToggle={() => onOpen(openId === widget.id ? null : widget.id)}
                dispatch={dispatch}
                problems={problems}
                locked={locked}
                onConditions={onConditions}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </>
  );
}
