import picomatch from 'picomatch';

/** Whether a string matches a rule's pattern. */
export type Pattern = (value: string) => boolean;

const regexForm = /^\/(.+)\/([dgimsuvy]*)$/s;

/**
 * A rule's pattern: `/body/flags` is a regular expression (searched, so anchor it with ^ and $
 * to match the whole value); anything else is a glob on the whole value in which `*` matches any
 * characters, `/` included, `?` one, `[...]` a class and `{a,b}` either. Throws on a bad one.
 */
export function compilePattern(pattern: string): Pattern {
  const regex = regexForm.exec(pattern);
  if (regex) {
    let compiled: RegExp;
    try {
      // g and y would make test() remember where it stopped.
      compiled = new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, ''));
    } catch (error) {
      throw new Error(`is not a valid regular expression: ${(error as Error).message}`);
    }
    return (value) => compiled.test(value);
  }
  try {
    return picomatch(pattern, { bash: true, dot: true, strictBrackets: true });
  } catch (error) {
    throw new Error(`is not a valid glob: ${(error as Error).message}`);
  }
}
