// How one environment variable is read: the error that stops start-up, integers and on/off switches.

/** A setting stops the process: the message names the variable, the hint says what to do about it. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly hint = "Fix the setting in the environment or in .env, then start again.",
  ) {
    super(message);
  }
}

/** An integer setting from `min` to `max`; unset or empty is `fallback`. */
export function integerSetting(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  // Plain decimal digits only: Number() alone would also take " 80", "0x50" and "1e3".
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

const switchWords = new Map([
  ["1", true],
  ["true", true],
  ["yes", true],
  ["on", true],
  ["0", false],
  ["false", false],
  ["no", false],
  ["off", false],
]);

/**
 * An on/off setting: `1/true/yes/on` or `0/false/no/off`, in any case; unset or empty is the default.
 * Anything else is refused rather than guessed at (`2` or `enabled` taken as off would fail silently).
 */
export function switchSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = switchWords.get(raw.toLowerCase());
  if (value === undefined) {
    throw new ConfigError(`${name} must be on (1, true, yes, on) or off (0, false, no, off); got "${raw}".`);
  }
  return value;
}
