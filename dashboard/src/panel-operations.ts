/**
 * The operations of the side panels: the open channels, the global hooks, the usage and the
 * schedules. `npm run codegen` types them into src/gql; names start with Dashboard, as every
 * operation of the dashboard's does.
 */
import { graphql } from '../../src/gql/index.js';

/** The open channels; no subscription tells of a listener coming or going, so it is polled. */
export const ChannelsQuery = graphql(`
  query DashboardChannels {
    channels {
      name
      description
      listeners
      lastMessageAt
    }
  }
`);

/** The global hooks in the user's Claude settings (the hub's config dir); admin only. */
export const HookInstallationFields = graphql(`
  fragment HookInstallationFields on HookInstallation {
    path
    installed
    events
    url
    current
  }
`);

export const HookInstallationQuery = graphql(`
  query DashboardHookInstallation {
    hookInstallation(scope: USER) {
      ...HookInstallationFields
    }
  }
`);

export const InstallHooksMutation = graphql(`
  mutation DashboardInstallHooks {
    installHooks(scope: USER) {
      ...HookInstallationFields
    }
  }
`);

export const UninstallHooksMutation = graphql(`
  mutation DashboardUninstallHooks {
    uninstallHooks(scope: USER) {
      ...HookInstallationFields
    }
  }
`);

/** The tokens and cost of the turns completed since `since`, grouped; the costliest group first. */
export const UsageQuery = graphql(`
  query DashboardUsage($groupBy: UsageGroup!, $since: DateTime) {
    usage(groupBy: $groupBy, since: $since) {
      key
      turns
      inputTokens
      outputTokens
      cacheReadTokens
      cacheWriteTokens
      costUsd
      unpricedTurns
    }
  }
`);

export const SchedulesQuery = graphql(`
  query DashboardSchedules {
    schedules {
      id
      cron
      timezone
      text
      sessionId
      createSession
      overlap
      nextRunAt
      lastRunAt
      lastSessionId
      lastError
    }
  }
`);
