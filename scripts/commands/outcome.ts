/**
 * Exit codes of every command, as the README's operators' section lists them. The numbers are the
 * BSD sysexits ones where one fits, so scripts that already know them read these right.
 */
export const EXIT = {
  done: 0,
  /** The command ran and failed (a user exists already, an archive is damaged…): its one line says why. */
  failed: 1,
  /** Wrong arguments: an unknown command or option, an extra argument, a missing or malformed value. */
  usage: 64,
  /** The embedded database does not open (serve): the line names the newest automatic backup and `restore --latest` (decision 070). */
  unopenable: 74,
  /** The embedded database is held by another process, a running server most often: stop it or try later. */
  dataDirInUse: 75,
  /** A setting is invalid, or the master key does not fit the database (the server's start uses 78 too). */
  configuration: 78,
} as const;

/** A failure the command foresaw: its message is the whole line the operator reads. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}
