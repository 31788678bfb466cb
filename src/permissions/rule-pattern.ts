import picomatch from 'picomatch';

/** Whether a string matches a rule's pattern. */
export type Pattern = (value: string) => boolean;

const regexForm = /^\/(.+)\/([dgimsuvy]*)$/s;
/**
 * A group holding a quantifier, itself quantified: the shape of the regexes whose backtracking
 * can run for minutes on one crafted value (JavaScript's engine has no time limit), and a hook
 * answer must not wait on one. Escapes and classes are skipped over when looking.
 */
const nestedQuantifier =
  /\((?:[^()\\[]|\\.|\[(?:[^\]\\]|\\.)*\])*[+*}](?:[^()\\[]|\\.|\[(?:[^\]\\]|\\.)*\])*\)[+*{]/;

/**
 * A rule's pattern: `/body/flags` is a regular expression (searched, so anchor it with ^ and $
 * to match the whole value); anything else is a glob on the whole value in which `*` matches any
 * characters, `/` included, `?` one, `[...]` a class and `{a,b}` either. Throws on a bad one.
 */
export function compilePattern(pattern: string): Pattern {
  const regex = regexForm.exec(pattern);
  if (regex) {
    if (nestedQuantifier.test(regex[1]!))
      throw new Error(
        'nests a quantifier in a quantified group (like (a+)+), which can take exponential time on some inputs: rewrite it without',
      );
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
    // The regex alone: picomatch's matcher makes a result object at every test.
    const compiled = picomatch.makeRe(pattern, { bash: true, dot: true, strictBrackets: true });
    return (value) => compiled.test(value);
  } catch (error) {
    throw new Error(`is not a valid glob: ${(error as Error).message}`);
  }
}
