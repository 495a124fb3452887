// Apart from http.ts, which every reporter page loads: only the console and the attach-files step need it.

/** The console's and attach-files' fallback, as document 2 §8 words it: a failure with no message of its own. */
export const ACTION_FAILED_MESSAGE = 'Something went wrong, please try again.';
