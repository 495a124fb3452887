import { RICH_TEXT_MAX_LENGTH } from "./rich-text.ts";

/**
 * How long each kind of text from outside may be, and what a person is told when theirs is longer.
 * The server enforces these (api/graphql/input-guard.ts for every GraphQL argument, and each module's
 * own validation), and the pages read the same numbers for their fields' limits.
 * Lengths count UTF-16 code units, as `String.length` and valibot's `maxLength` do.
 */

export interface TextLimit {
  readonly max: number;
  /** The message for a longer text. */
  readonly tooLong: string;
}

export const limit = (max: number, tooLong = `Must be at most ${max} characters`): TextLimit => ({ max, tooLong });

/**
 * Search texts are matched as substrings on every keystroke; a long one only costs the database
 * (an 880 KB search stalled it) and can match nothing a person typed, so 200 is ample.
 */
export const SEARCH_TEXT = limit(200, "Search text must be at most 200 characters.");

export const TEXT_LIMITS = {
  /** Ids are uuids (36 characters); cursors and blob ids are ids too. */
  id: limit(100),
  search: SEARCH_TEXT,
  /** "YYYY-MM-DD". */
  date: limit(10, "Invalid date"),
  /** RFC 5321's longest address. */
  email: limit(254, "Invalid email address"),
  personName: limit(100),
  password: limit(1000),
  tagName: limit(60, "Tag name must be at most 60 characters."),
  internalReference: limit(200, "Internal reference must be at most 200 characters."),
  organisationName: limit(200),
  abn: limit(50),
  enquiryLabel: limit(60),
  /** Welcome texts an organisation shows on its pages. */
  welcomeMessage: limit(20_000),
  note: limit(10_000, "Note must be at most 10,000 characters."),
  chatMessage: limit(10_000, "Messages can be at most 10000 characters"),
  /** A form's automatic acknowledgement: it is sent as a chat message, so it is bounded like one. */
  acknowledgementMessage: limit(10_000, "The acknowledgement message can be at most 10000 characters"),
  savedReplyTitle: limit(100, "Title must be at most 100 characters."),
  savedReplyBody: limit(10_000, "Reply must be at most 10,000 characters."),
  /** One answer to one question of a report form (a long text area's answer included). */
  answer: limit(20_000, "Answers can be at most 20000 characters"),
  /** A solved proof-of-work challenge (decision 016): a signed payload, its signature and a nonce. */
  verifyToken: limit(1000),
  /** Anything else: codes, labels, keys. */
  short: limit(200),
} as const satisfies Record<string, TextLimit>;

/** Postgres cannot store U+0000 in text; no person types one, so it is refused, never stored or stripped silently. */
export const NUL_CHARACTER = "\u0000";
export const NUL_NOT_ALLOWED = "Text must not contain NUL characters.";

/**
 * Bounds of a report form and its widgets (decision 020). Generous for any real form (the longest
 * demo form has 20 widgets) yet small enough that one save stays one quick transaction.
 */
export const FORM_LIMITS = {
  formName: limit(200),
  widgets: 500,
  widgetTitle: limit(1000),
  widgetText: limit(2000),
  pageName: limit(100),
  optionsPerWidget: 100,
  option: limit(200, "Options must be at most 200 characters"),
  rulesPerCondition: 20,
  messageTitle: limit(200),
  /** A form's password; the reporters' unlock refuses longer ones before hashing. */
  password: limit(200),
  /** A message's HTML, before and after sanitising (api/shared/rich-text.ts). */
  messageHtml: limit(RICH_TEXT_MAX_LENGTH, `Messages can be at most ${RICH_TEXT_MAX_LENGTH} characters`),
} as const;

