import type { ChannelInfo, ChannelMessage } from '../channels/channel.js';
import { checkChannelName } from '../channels/channel.js';
import { ErrorCode, HubError } from '../errors.js';
import { builder } from './builder.js';

const ChannelRef = builder.objectRef<ChannelInfo>('Channel').implement({
  description:
    "A named output sessions answer to with the hub's send_to_channel tool: open while --channel declares it or a listener reads it.",
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description', {
      nullable: true,
      description: "One line on what it is: --channel's, or its first listener's.",
    }),
    listeners: t.exposeInt('listeners', {
      description: 'Subscriptions to channelMessages reading it now.',
    }),
    lastMessageAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (channel) => channel.lastMessageAt,
    }),
  }),
});

const ChannelMessageRef = builder.objectRef<ChannelMessage>('ChannelMessage').implement({
  description: 'A message a session sent to a channel.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: '1, 2, 3, ... per channel.' }),
    channel: t.exposeString('channel'),
    sessionId: t.exposeID('sessionId', { description: 'The session that sent it.' }),
    text: t.exposeString('text'),
    at: t.field({ type: 'DateTime', resolve: (message) => message.at }),
  }),
});

builder.queryField('channels', (t) =>
  t.field({
    type: [ChannelRef],
    authScopes: { read: true },
    description: 'The open channels, by name.',
    resolve: (_root, _args, ctx) => ctx.channels.list(),
  }),
);

builder.subscriptionField('channelMessages', (t) =>
  t.field({
    type: ChannelMessageRef,
    authScopes: { read: true },
    description:
      'What sessions send to the channel, which is open while this subscription runs. With `after`, the stored messages with a greater seq come first, then live ones, with no gap and no duplicate, so a listener that comes back gets what it missed.',
    args: {
      channel: t.arg.string({ required: true }),
      after: t.arg.int({ description: 'Replay the stored messages with seq > after first.' }),
      description: t.arg.string({
        description: 'What the channel is, for list_channels (kept from its first listener).',
      }),
    },
    subscribe: (_root, args, ctx) => {
      const channel = checkChannelName(args.channel);
      if (args.after != null && args.after < 0) {
        throw new HubError(ErrorCode.BadInput, `after must be >= 0, got ${args.after}`);
      }
      const description = args.description?.trim().split('\n')[0]?.slice(0, 200) || null;
      return ctx.channels.listen(channel, args.after ?? null, description);
    },
    resolve: (message) => message,
  }),
);
