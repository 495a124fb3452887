import type { ReactNode } from 'react';
import { answerText } from './answer-text';
import { RedactedText } from './redacted-text';

export interface AnswerPage {
  name: string;
  answers: { widgetID: string; title: string; type: string; answer: readonly string[] }[];
}

type AnswerPagesProps = {
  pages: readonly AnswerPage[];
  /** The heading level of each page's name, below the screen's own headings. */
  heading: 'h3' | 'h4';
  /** Class names of the screen that shows them (the reporter's follow-up area or the console). */
  classes: { section: string; title: string; list: string; item: string };
  /** Something to offer beside an answer (the console's Redact), or nothing. */
  action?: (answer: AnswerPage['answers'][number]) => ReactNode;
};

// A submitted report's answers grouped by page: the reporter's follow-up area and the console's
// report details show them the same way, from the same server grouping.
export function AnswerPages({ pages, heading: Heading, classes, action }: AnswerPagesProps) {
  return (
    <>
      {pages.map((page, index) => (
        <section key={`${index}-${page.name}`} className={classes.section} aria-labelledby={`answers-page-${index}`}>
          <Heading id={`answers-page-${index}`} className={classes.title}>
            {page.name}
          </Heading>
          <dl className={classes.list}>
            {page.answers.map((answer) => (
              <div key={answer.widgetID} className={classes.item}>
                <dt>{answer.title}</dt>
                <dd>
                  {/* The answer keeps an element of its own beside any action, so it reads (and is found) as itself. */}
                  <span>
                    <RedactedText text={answerText(answer.type, answer.answer)} />
                  </span>
                  {action?.(answer)}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </>
  );
}
