/**
 * Resolves once `check` holds, polling every 10 ms; false if it still does not after `ms`. The bound
 * is a ceiling, not an expectation of speed: it only matters when the awaited thing never happens.
 */
export async function holdsWithin(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await Bun.sleep(10);
  return check();
}
