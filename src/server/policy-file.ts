import { PolicyFileWatch } from '../permissions/policy-file-watch.js';
import type { RuleBook } from '../permissions/rule-book.js';
import type { StartContext } from './parts.js';

/**
 * Step 2b (with --policy-file): the file watched and its rules loaded into the rule book, before
 * the API listens, so no hook is answered without them. A file that does not load stops the
 * start with its PolicyFileError (`FILE:LINE: what`); release() ends the watch.
 */
export function watchPolicyFile(
  { options, log, parts }: StartContext,
  rules: RuleBook,
): PolicyFileWatch | null {
  if (!options.policyFile) return null;
  const policyFile = (parts.policyFile = new PolicyFileWatch(
    { ...options.policyFile, log },
    rules,
  ));
  policyFile.start();
  return policyFile;
}
