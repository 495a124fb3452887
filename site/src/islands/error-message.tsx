import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { FALLBACK_ERROR_MESSAGE } from '../lib/http';
import { ERROR_DATA_ID, readPageData } from '../lib/page-data';
import { QuickExit } from './quick-exit';

const errorSchema = v.object({ message: v.string() });

function readMessage(): string {
  const parsed = v.safeParse(errorSchema, readPageData(ERROR_DATA_ID));
  return parsed.success && parsed.output.message.trim() !== '' ? parsed.output.message : FALLBACK_ERROR_MESSAGE;
}

// The message is injected per request (for instance an unknown or suspended
// organisation), so the build renders an empty live region and the browser
// fills it in. Reporters may land here, so Quick Exit is offered too. There
// is no 'Go Back' link: on an unknown organisation host '/' is this page again.
export function ErrorMessage() {
  const [message, setMessage] = useState<string>();

  useEffect(() => {
    setMessage(readMessage());
  }, []);

  return (
    <div className="reporter-page">
      <QuickExit />
      <main className="container container--narrow">
        <div className="card stack">
          <p className="error-page__message" role="status">
            {message ?? ''}
          </p>
        </div>
      </main>
    </div>
  );
}
