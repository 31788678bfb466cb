import { hostname } from 'node:os';
import { ClusterHub } from '../cluster/cluster-hub.js';
import { nodeCallEndpoint } from '../cluster/node-calls.js';
import { ScheduleShare } from '../cluster/schedule-share.js';
import type { ApiServer } from './api-server.js';
import type { HubCore } from './hub-core.js';
import { hookHost } from './listen.js';
import type { Store } from './open-store.js';
import type { PartOptions } from './part-options.js';
import type { StartContext } from './parts.js';

/**
 * Joins the cluster (with --redis-url): this node's sessions are shared, the schema and the
 * streams answer for every node's from then on, the other nodes' calls are taken, and the
 * permission rules made through the API and the scheduled prompts are the cluster's.
 */
export async function joinCluster(
  { config, options, log, parts }: StartContext,
  cluster: NonNullable<PartOptions['cluster']>,
  deps: { port: number; api: ApiServer; core: HubCore; store: Store },
): Promise<void> {
  const { api, core } = deps;
  const nodeName = config.nodeName || hostname();
  const joined = (parts.cluster = await ClusterHub.join(
    {
      hub: api.localHub,
      sessions: core.sessions,
      eventLog: deps.store.eventLog,
      bus: core.bus,
      permissionChanges: core.permissionChanges,
      rules: core.rules,
      usageLimits: api.usageLimits,
      costs: api.costs,
      streamOptions: api.streamOptions,
    },
    {
      ...cluster,
      nodeName,
      url: config.advertiseUrl || `http://${hookHost(config.host)}:${deps.port}`,
      log,
    },
  ));
  const schedules = (parts.scheduleShare = await ScheduleShare.connect({
    ...cluster,
    nodeName,
    log,
  }));
  await schedules.start(api.scheduler);
  parts.nodeCalls = nodeCallEndpoint(joined.secret, (call) => joined.run(call), {
    maxBodyBytes: options.maxBodyBytes,
    log,
  });
}
