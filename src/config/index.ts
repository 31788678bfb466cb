/**
 * The hub's options: what they are (HubConfig), the table every reader of them shares
 * (optionSpecs), reading them from flags and the environment (parseConfig), and `--help`.
 */
export {
  budgetProblem,
  labelPattern,
  maxBudgetUsd,
  parseBudget,
  type ConfiguredBudget,
} from './budget-option.js';
export { runtimeChoices, wsServerKinds, type HubConfig, type WsServerKind } from './hub-config.js';
export { optionSpecs, type OptionSpec } from './option-specs.js';
export { isLoopbackHost, parseConfig, type ConfigResult } from './parse-config.js';
export { usage } from './usage.js';
