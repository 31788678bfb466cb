import { OrchestrationReach } from '../sessions/session.js';
import { builder } from './builder.js';

export const OrchestrationReachRef = builder.enumType('OrchestrationReach', {
  description: "Which sessions an orchestrating session may act on with the hub's tools.",
  values: {
    CHILDREN: { value: OrchestrationReach.Children, description: 'Only those it started.' },
    ALL: { value: OrchestrationReach.All, description: 'Every session of the hub (but itself).' },
  },
});
