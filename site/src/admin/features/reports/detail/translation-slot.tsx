import { lazy, Suspense, type ComponentProps } from 'react';

// Staff's Translate action (decision 046) in its own chunk: fetched only on a report where the
// availability check says it is offered, so other reports' screens download none of it.

const load = () => import('./reporter-translation');
const AnswersTranslation = lazy(() => load().then((module) => ({ default: module.AnswersTranslation })));
const TranslateLanguageChoice = lazy(() => load().then((module) => ({ default: module.TranslateLanguageChoice })));
const MessageTranslate = lazy(() => load().then((module) => ({ default: module.MessageTranslate })));

export function AnswersTranslationSlot(props: ComponentProps<typeof AnswersTranslation>) {
  return (
    <Suspense fallback={null}>
      <AnswersTranslation {...props} />
    </Suspense>
  );
}

export function LanguageChoiceSlot(props: ComponentProps<typeof TranslateLanguageChoice>) {
  return (
    <Suspense fallback={null}>
      <TranslateLanguageChoice {...props} />
    </Suspense>
  );
}

export function MessageTranslateSlot(props: ComponentProps<typeof MessageTranslate>) {
  return (
    <Suspense fallback={null}>
      <MessageTranslate {...props} />
    </Suspense>
  );
}
