import { loadConfigOrExit, type Config } from "../../api/config.ts";
import { RestoreError } from "../../api/lib/backup/restore.ts";
import { ArchiveError } from "../../api/lib/backup/tar.ts";
import { MasterKeyError } from "../../api/lib/master-key.ts";
import { DataDirLockedError } from "../../db/data-dir-lock.ts";
import packageJson from "../../package.json" with { type: "json" };
import { optionsHelp, optionValue, parseOptions, usageLine, UsageError, type OptionSpecs, type ParsedOptions } from "./arguments.ts";
import { CommandFailure, EXIT } from "./outcome.ts";

/**
 * The one table of operators' commands, read by `bun run cli` in a checkout and by the single
 * executable (`lantern`): the same names, options, help and exit codes in both (decision 068).
 */
export interface Program {
  /** How the operator calls it: "lantern", "bun run cli". */
  name: string;
  /** Run when no command is given; none means the general help and exit code 64. */
  defaultCommand?: string;
}

interface Command {
  name: string;
  summary: string;
  /** Said once under the usage in the command's help: what it touches, and when to use it. */
  details: string;
  options: OptionSpecs;
  /** Resolves to an exit code, or to "serving" for a server, which keeps the process alive. */
  run(options: ParsedOptions, config: () => Config, program: Program): Promise<number | "serving">;
}

const done = (work: Promise<void>) => work.then(() => EXIT.done);
const required = (options: ParsedOptions, name: string) => optionValue(options, name)!;

const COMMANDS: Command[] = [
  {
    name: "serve",
    summary: "serve Lantern",
    details: "Migrates the database, then serves until SIGTERM or Ctrl-C. Settings come from the environment (README, \"Configuration\"). An empty database gets no account unless --demo is given: create the first one with create-superadmin.",
    options: { demo: { description: "seed the demo organisations into an empty database (their passwords are public: for trying Lantern only)" } },
    run: async (options, config, program) => {
      const { runServer } = await import("../../api/run-server.ts");
      await runServer(config(), { demo: options.demo ? "asked" : "never", createSuperAdminCommand: `${program.name} create-superadmin` });
      return "serving";
    },
  },
  {
    name: "create-superadmin",
    summary: "create a super admin account",
    details: "Creates a super admin, who manages every organisation. The password must meet the console's rule.",
    options: {
      email: { value: "EMAIL", required: true, description: "the account's email address (its sign-in)" },
      "first-name": { value: "NAME", required: true, description: "the first name the console shows" },
      "last-name": { value: "NAME", required: true, description: "the last name the console shows" },
      password: { value: "PASSWORD", required: true, description: "at least 8 characters, with a letter and a number" },
    },
    run: async (options, config) => {
      const { createSuperAdmin } = await import("./database-commands.ts");
      const input = { email: required(options, "email"), password: required(options, "password"), firstName: required(options, "first-name"), lastName: required(options, "last-name") };
      return done(createSuperAdmin(config(), input));
    },
  },
  {
    name: "backup",
    summary: "back up the database and stored files into one archive",
    details: "Writes every table (one snapshot) and every stored file into FILE: tar, gzip-compressed when FILE ends in .gz or .tgz. On the embedded database a running server makes it. The master key is not in the archive: keep it apart.",
    options: { to: { value: "FILE", required: true, description: "the archive to write; it must not exist" } },
    run: async (options, config) => done((await import("../backup/commands.ts")).backup(required(options, "to"), config())),
  },
  {
    name: "restore",
    summary: "restore an archive onto an empty database and blob store",
    details: "Checks the whole archive, then loads it in one transaction into an empty DATA_DIR or database and an empty blob store, and runs the migrations of a newer Lantern. Start the restored Lantern with the same master key. With --latest, the embedded database's newest automatic backup is restored over a database that does not open, which is moved aside, not deleted; stored files stay.",
    options: {
      from: { value: "FILE", description: "the archive backup wrote" },
      latest: { description: "the embedded database's newest automatic backup; a database that does not open is moved aside first" },
    },
    run: async (options, config) => {
      const from = optionValue(options, "from");
      if ((from === undefined) === !options.latest) throw new CommandFailure("give either --from FILE or --latest", EXIT.usage);
      const [{ restore, restoreLatest }, { extractEmbedded }] = await Promise.all([import("../backup/commands.ts"), import("../../api/embedded.ts")]);
      const settings = config();
      const migrations = (await extractEmbedded(settings.dataDir))?.migrationsFolder;
      return done(from === undefined ? restoreLatest(settings, migrations) : restore(from, settings, migrations));
    },
  },
  {
    name: "migrate",
    summary: "apply the migrations this version ships",
    details: "Brings the database to this version's schema (a server's start does it too) and checks the master key fits.",
    options: {},
    run: async (_options, config) => done((await import("./database-commands.ts")).migrate(config())),
  },
  {
    name: "rotate-keys",
    summary: "give every organisation and the platform a new data key, and seal again with them",
    details: "Wraps every data key with the current master key, waits until every server knows the new keys, then seals again everything older keys sealed. Safe while servers run. To change the master key: MASTER_KEY the new one, MASTER_KEY_PREVIOUS the old one.",
    options: { "switch-delay-seconds": { value: "N", description: "the wait before sealing again (default 90); shorten it only when no other server runs" } },
    run: async (options, config) => done((await import("./database-commands.ts")).rotateKeys(config(), optionValue(options, "switch-delay-seconds"))),
  },
  {
    name: "seed-demo",
    summary: "add the demo organisations and their accounts",
    details: "Adds the demo organisations, accounts and reports (README, \"Demo data\") unless they exist. Their passwords are public: never on a database people use.",
    options: {},
    run: async (_options, config) => done((await import("./database-commands.ts")).seedDemoCommand(config())),
  },
  {
    name: "version",
    summary: "print the version",
    details: "Prints Lantern's version and the Bun it runs on. Reads no setting and touches nothing.",
    options: {},
    run: async () => {
      console.log(`Lantern ${packageJson.version} (Bun ${Bun.version})`);
      return EXIT.done;
    },
  },
];

const EXIT_CODES_HELP = [
  "Exit codes:",
  `  ${EXIT.done}   done`,
  `  ${EXIT.failed}   the command failed (one line on stderr says why)`,
  `  ${EXIT.usage}  wrong arguments: unknown command or option, extra argument, missing or malformed value`,
  `  ${EXIT.unopenable}  the embedded database does not open (serve): the line names the newest automatic backup, which restore --latest brings back`,
  `  ${EXIT.dataDirInUse}  the embedded database is in use by another process (a running server): stop it first`,
  `  ${EXIT.configuration}  a setting is invalid, or the master key does not fit the database`,
];

export function programHelp(program: Program): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    `Usage: ${program.name} ${program.defaultCommand ? "[COMMAND]" : "COMMAND"} [OPTIONS]`,
    "",
    "Lantern: anonymous incident reporting. Settings come from the environment (README, \"Configuration\").",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}${command.name === program.defaultCommand ? " (the default when no command is given)" : ""}`),
    "",
    `Run \`${program.name} COMMAND --help\` for a command's options.`,
    "",
    ...EXIT_CODES_HELP,
  ].join("\n");
}

function commandHelp(program: Program, command: Command): string {
  return [usageLine(program.name, command.name, command.options), "", command.details, "", "Options:", ...optionsHelp(command.options)].join("\n");
}

/** Drizzle wraps the database's error (which says what went wrong) in one that repeats the query. */
function innermost(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message.split("\n")[0]! : String(current);
}

/** The exit code and the one line a failure prints. */
function failure(command: string, error: unknown): [number, string] {
  if (error instanceof CommandFailure) return [error.exitCode, error.message];
  if (error instanceof DataDirLockedError) return [EXIT.dataDirInUse, error.message];
  if (error instanceof MasterKeyError) return [EXIT.configuration, error.message];
  if (error instanceof ArchiveError || error instanceof RestoreError) return [EXIT.failed, error.message];
  return [EXIT.failed, `The ${command} failed: ${innermost(error)}`];
}

/** Runs one command line; resolves to its exit code, or to "serving" while a server runs. */
export async function runCommandLine(args: string[], program: Program): Promise<number | "serving"> {
  const [first, ...rest] = args;
  if (first === "--help" || first === "-h") {
    console.log(programHelp(program));
    return EXIT.done;
  }
  if (first === "--version") return runCommandLine(["version", ...rest], program);
  const named = first !== undefined && !first.startsWith("-");
  const name = named ? first : program.defaultCommand;
  if (name === undefined) {
    console.error(`${program.name}: name a command\n\n${programHelp(program)}`);
    return EXIT.usage;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`${program.name}: unknown command '${name}' (${program.name} --help lists them)`);
    return EXIT.usage;
  }
  const commandArgs = named ? rest : args;
  if (commandArgs.includes("--help") || commandArgs.includes("-h")) {
    console.log(commandHelp(program, command));
    return EXIT.done;
  }
  let options: ParsedOptions;
  try {
    options = parseOptions(commandArgs, command.options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${program.name} ${command.name}: ${error.message}\n${usageLine(program.name, command.name, command.options)}`);
    return EXIT.usage;
  }
  try {
    // Settings are read only now: help and wrong arguments never depend on them. A bad one exits 78.
    return await command.run(options, () => loadConfigOrExit(), program);
  } catch (error) {
    const [code, line] = failure(command.name, error);
    console.error(line);
    return code;
  }
}
