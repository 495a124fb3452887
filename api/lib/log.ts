/**
 * The one logger. It writes only what callers give it; callers never give it an address, a user
 * agent, a cookie or request bodies (see the access log in http/access-log.ts).
 */
type Level = "silent" | "error" | "info";
let level: Level = "info";

export function setLogLevel(next: Level): void {
  level = next;
}

/** Whether info lines are written: callers skip building one that would be dropped. */
export const infoEnabled = (): boolean => level === "info";

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  if (level === "info") console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), message, ...fields }));
}

export function logError(message: string, error?: unknown, fields: Record<string, unknown> = {}): void {
  if (level === "silent") return;
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
  console.error(JSON.stringify({ level: "error", time: new Date().toISOString(), message, ...fields, ...detail }));
}
