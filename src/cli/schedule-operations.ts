import { graphql } from '../gql/index.js';

/** The operations of `claude-code-hub schedule`, typed by codegen (npm run codegen). */

export const ScheduleFragment = graphql(`
  fragment CliSchedule on Schedule {
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
    createdAt
    createdBy
  }
`);

export const SchedulesQuery = graphql(`
  query CliSchedules {
    schedules {
      ...CliSchedule
    }
  }
`);

export const SchedulePromptMutation = graphql(`
  mutation CliSchedulePrompt($input: SchedulePromptInput!) {
    schedulePrompt(input: $input) {
      ...CliSchedule
    }
  }
`);

export const DeleteScheduleMutation = graphql(`
  mutation CliDeleteSchedule($id: ID!) {
    deleteSchedule(id: $id)
  }
`);
