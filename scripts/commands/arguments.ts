/**
 * The command line's grammar, kept small on purpose: `--name VALUE`, `--name=VALUE` and flags
 * (`--demo`), each at most once; no positional arguments. Anything else is refused with one line,
 * never ignored: an ignored `--to` once let a backup start a server instead.
 */
export interface OptionSpec {
  /** What the value is called in the usage (FILE, EMAIL); absent for a flag. */
  value?: string;
  required?: boolean;
  description: string;
}

export type OptionSpecs = Record<string, OptionSpec>;
export type ParsedOptions = Record<string, string | true>;

/** Wrong arguments: the runner prints the line, then the command's usage, and exits 64. */
export class UsageError extends Error {}

export function parseOptions(args: string[], specs: OptionSpecs): ParsedOptions {
  const parsed: ParsedOptions = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith("--") || arg === "--") throw new UsageError(`unexpected argument '${arg}'`);
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const spec = specs[name];
    if (!spec) throw new UsageError(`unknown option '--${name}'`);
    if (name in parsed) throw new UsageError(`--${name} is given twice`);
    if (!spec.value) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      parsed[name] = true;
      continue;
    }
    const value = equals === -1 ? args[++index] : arg.slice(equals + 1);
    if (value === undefined || (equals === -1 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value (${spec.value})`);
    parsed[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) if (spec.required && !(name in parsed)) throw new UsageError(`--${name} ${spec.value} is required`);
  return parsed;
}

/** A value the grammar guarantees is there (required options) or absent (optional ones). */
export function optionValue(options: ParsedOptions, name: string): string | undefined {
  const value = options[name];
  return typeof value === "string" ? value : undefined;
}

export function usageLine(program: string, command: string, specs: OptionSpecs): string {
  const parts = Object.entries(specs).map(([name, spec]) => {
    const text = spec.value ? `--${name} ${spec.value}` : `--${name}`;
    return spec.required ? text : `[${text}]`;
  });
  return [`Usage: ${program} ${command}`, ...parts].join(" ");
}

export function optionsHelp(specs: OptionSpecs): string[] {
  const rows = [...Object.entries(specs).map(([name, spec]) => [spec.value ? `--${name} ${spec.value}` : `--${name}`, spec.description] as const), ["-h, --help", "show this help"] as const];
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, description]) => `  ${left.padEnd(width)}  ${description}`);
}
