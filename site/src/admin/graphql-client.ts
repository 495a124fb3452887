import { cacheExchange, Client, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from 'urql';
import { subscribe } from '../lib/live';

// The console's one GraphQL client: queries and mutations over HTTP, subscriptions over the shared
// graphql-ws socket of site/src/lib/live.ts. A new client is made for each signed-in user, so no
// cached answer outlives the session it was fetched for.

const ENDPOINT = '/api/gql/query';
/** graphql-ws close code the server uses when the staff session is gone. */
const SESSION_GONE_CLOSE_CODE = 4401;

function isUnauthenticated(error: CombinedError): boolean {
  return error.graphQLErrors.some((problem) => problem.extensions?.code === 'UNAUTHENTICATED');
}

export function createAdminClient(onUnauthenticated: () => void): Client {
  return new Client({
    url: ENDPOINT,
    // The spec's fetch policy: show what is known at once, and always ask the server again.
    requestPolicy: 'cache-and-network',
    fetchOptions: { credentials: 'same-origin' },
    // POST only: search text and report ids stay out of URLs, and so out of proxy and server logs.
    preferGetMethod: false,
    exchanges: [
      mapExchange({
        onError(error) {
          if (isUnauthenticated(error)) onUnauthenticated();
        },
      }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe(sink) {
            const stop = subscribe<Record<string, unknown>>(
              request.query ?? '',
              request.variables as Record<string, unknown> | undefined,
              (data) => sink.next({ data }),
              (problem) => {
                const code = problem.closeCode === SESSION_GONE_CLOSE_CODE ? 'UNAUTHENTICATED' : undefined;
                sink.next({ errors: [{ message: problem.message, extensions: code ? { code } : {} }] });
                sink.complete();
              },
            );
            return { unsubscribe: stop };
          },
        }),
      }),
    ],
  });
}
