// Command-line options of the bench scripts: `--name value` pairs and `--flag` switches, read from
// process.argv. A number option that is given but not a finite number stops the script with a
// message naming it (rather than timing NaN rounds).

const argv = process.argv.slice(2);

/** The value after `--name` (a string), or `fallback` when the option is absent. */
export function stringOption(name, fallback) {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  if (i + 1 >= argv.length) throw new Error(`--${name} needs a value`);
  return argv[i + 1];
}

/** The number after `--name`, or `fallback` when the option is absent. */
export function numberOption(name, fallback) {
  const text = stringOption(name, undefined);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`--${name} must be a number, got '${text}'`);
  return value;
}

/** True when `--name` is on the command line. */
export function flag(name) {
  return argv.includes(`--${name}`);
}

/** The command line after the script, as given (for the reproduction commands the docs print). */
export function commandLineArgs() {
  return argv.slice();
}
