import type { DraftSnapshot } from "./draft-statements.ts";

/**
 * The Drafts this instance wrote last, as they are after its write (decision 028), so the next page
 * save or the completion of the same Draft need not read it again.
 *
 * A copy can never be trusted blindly and is not: every write names the row version its decision
 * was made on, and changes nothing if the row moved on. A copy made stale by another instance, a
 * second tab or the draft cleaner therefore costs one refused write, after which the Draft is read
 * again. What is kept is bounded in count, size and age, since abandoned Drafts never say goodbye.
 */
const MAX_ENTRIES = 5_000;
/** Answers beyond this (as JSON) are not kept: a few huge Drafts must not hold the memory. */
const MAX_ANSWER_CHARS = 32_000;
const MAX_AGE_MS = 30 * 60 * 1000;

interface Entry {
  snapshot: DraftSnapshot;
  storedAt: number;
}

export class DraftSnapshots {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  get(organisationId: string, submissionId: string): DraftSnapshot | undefined {
    const entry = this.#entries.get(submissionId);
    if (!entry) return undefined;
    if (this.#now() - entry.storedAt > MAX_AGE_MS || entry.snapshot.submission.organisationId !== organisationId) {
      this.#entries.delete(submissionId);
      return undefined;
    }
    return entry.snapshot;
  }

  store(snapshot: DraftSnapshot): void {
    const id = snapshot.submission.id;
    this.#entries.delete(id);
    if (snapshot.submission.completed || JSON.stringify(snapshot.answers).length > MAX_ANSWER_CHARS) return;
    // Map keeps insertion order: the least recently written Draft goes first when full.
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(id, { snapshot, storedAt: this.#now() });
  }

  forget(submissionId: string): void {
    this.#entries.delete(submissionId);
  }

  get size(): number {
    return this.#entries.size;
  }
}
