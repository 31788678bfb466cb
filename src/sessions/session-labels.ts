import { labelPattern } from '../config/index.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';

/** How many labels a session carries at most, after duplicates are dropped. */
export const maxLabels = 32;

/**
 * A session's labels as given, duplicates dropped and order kept; BAD_USER_INPUT quoting the
 * first label that is not 1 to 64 of the allowed characters, or naming the count past 32.
 * Pure: a caller stores the result, never the input.
 */
export function checkLabels(labels: readonly unknown[]): string[] {
  const kept = new Set<string>();
  for (const [index, label] of labels.entries()) {
    if (typeof label !== 'string' || !labelPattern.test(label)) {
      throw new HubError(
        ErrorCode.BadInput,
        `labels[${index}] must be 1 to 64 letters, digits or any of . _ : / = -, got ${describeValue(label)}`,
      );
    }
    kept.add(label);
  }
  if (kept.size > maxLabels) {
    throw new HubError(
      ErrorCode.BadInput,
      `a session carries at most ${maxLabels} labels, got ${kept.size} different ones`,
    );
  }
  return [...kept];
}
