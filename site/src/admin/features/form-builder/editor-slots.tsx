import { lazy, Suspense, type ComponentType } from 'react';
import type { FormTheme } from '../../../../../api/shared/theme';
import { RichTextFallback } from './rich-text-fallback';
import { ThemeFallback } from './theme-fallback';

// The rich text and theme editors are written alongside the builder and loaded lazily (they are
// heavy and only this screen needs them). A glob import finds them when they are part of the build
// and finds nothing otherwise, so the builder builds and works either way.

export type RichTextEditorProps = { id: string; label: string; value: string; onChange(html: string): void; disabled?: boolean };
export type ThemeEditorProps = { value: FormTheme; onChange(theme: FormTheme): void; disabled?: boolean };

declare global {
  interface ImportMeta {
    glob<T>(pattern: string): Record<string, () => Promise<T>>;
  }
}

function lazySlot<P extends object>(modules: Record<string, () => Promise<Record<string, unknown>>>, exportName: string, fallback: ComponentType<P>): ComponentType<P> {
  const load = Object.values(modules)[0];
  if (!load) return fallback;
  const Lazy = lazy(async () => {
    const module = await load();
    return { default: (module[exportName] as ComponentType<P> | undefined) ?? fallback };
  });
  return (props: P) => (
    <Suspense fallback={<p className="muted">Loading editor…</p>}>
      <Lazy {...props} />
    </Suspense>
  );
}

export const RichTextEditor = lazySlot<RichTextEditorProps>(import.meta.glob('./rich-text-editor.tsx'), 'RichTextEditor', RichTextFallback);
export const ThemeEditor = lazySlot<ThemeEditorProps>(import.meta.glob('./theme-editor.tsx'), 'ThemeEditor', ThemeFallback);
