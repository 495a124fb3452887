/**
 * The master key every test server is started with, on either database: the template database's
 * data keys and a second instance over the same Postgres must all open with one key. A fixed test
 * value, never used outside tests.
 */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7).toString("base64");
