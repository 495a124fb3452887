/**
 * What cleaning one upload may cost (docs/decisions/060-upload-cleaning-budget.md). Every byte a
 * cleaner takes out of a container (a part of an Office package, stored or deflated; a PDF object
 * stream) is counted against one budget per upload, across every nesting level together, and is
 * taken before the bytes are inflated, from the size the container announces or as the inflater's
 * hard output cap: a bomb is refused on its first part too many, never inflated first and measured after.
 * XML that is rewritten (Office parts) has a smaller budget of its own, taken before it is read.
 * The CPU time a cleaning may use is enforced from outside, by the pool (cleaning-pool.ts).
 */

/**
 * Inflated bytes per upload. Pictures and media are already compressed (an Office file's 25 MB of
 * photos hold about 25 MB, no more than the upload itself); only XML grows, ten to twenty times.
 * Inflating a part costs about twice its size in memory while it is read.
 */
export const MAX_INFLATED_BYTES = 32_000_000;
/**
 * XML rewritten per upload (Office parts that name people). Reading XML token by token costs many
 * times its size in short-lived memory, which the engine gives back to the system late: 12 MB of
 * `<w:p/>` took the cleaning worker about 300 MB. 8 MB is the text of a Word document of several
 * hundred pages, written as Word writes it.
 */
export const MAX_REWRITTEN_XML_BYTES = 8_000_000;

export const TOO_COSTLY_TO_CLEAN =
  "This file would take too much work to check for details that could identify you, so it was not attached. Save it again (for example as PDF), or attach a smaller part of it.";

/** The upload costs more to clean (inflated bytes or CPU time) than any real document does: it is refused, nothing of it is stored. */
export class OverBudgetError extends Error {
  constructor() {
    super(TOO_COSTLY_TO_CLEAN);
    this.name = "OverBudgetError";
  }
}

export class CleaningBudget {
  private left = MAX_INFLATED_BYTES;
  private xmlLeft = MAX_REWRITTEN_XML_BYTES;

  /** What may still be inflated: the hard cap to give an inflater. */
  get remaining(): number {
    return this.left;
  }

  /** Counts `bytes` about to be read out of a container; throws before anything is read when they do not fit. */
  take(bytes: number): void {
    if (bytes > this.left) throw new OverBudgetError();
    this.left -= bytes;
  }

  /** Counts an XML part about to be rewritten; throws before it is read when it does not fit. */
  takeXml(bytes: number): void {
    if (bytes > this.xmlLeft) throw new OverBudgetError();
    this.xmlLeft -= bytes;
  }
}
