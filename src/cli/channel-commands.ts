import { afterOption, textArgument, type Command } from './command.js';
import { ExitCode } from './command-io.js';
import { age, describeChannelMessage, painter, table } from './format.js';
import {
  ChannelMessagesSubscription,
  ChannelsQuery,
  EnqueueMessageMutation,
} from './operations.js';

/** The commands on channels: listen to one, send from one, list them. */
export const channelCommands: Record<string, Command> = {
  'channel listen': {
    args: '<name> [--after N] [--description TEXT] [--json]',
    summary:
      'Print what sessions send to the channel as it comes: readable (seq, time, session, text), or one JSON object a line. The channel is open while this runs; SIGINT or SIGTERM ends it.',
    positionals: 1,
    options: {
      after: { type: 'string' },
      description: { type: 'string' },
      json: { type: 'boolean' },
    },
    optionHelp: [
      '--after N           replay the stored messages after seq N first (0: all), to resume',
      "--description TEXT  what the channel is, for list_channels (the first listener's is kept)",
      '--json              one JSON object a line: seq, channel, sessionId, text, at',
    ],
    async run(client, values, [channel], io) {
      const after = afterOption(values.after);
      const description = typeof values.description === 'string' ? values.description : null;
      const paint = painter(io.colour);
      const messages = client.subscribe(
        ChannelMessagesSubscription,
        { channel: channel!, after, description },
        io.interrupted(),
      );
      for await (const { channelMessages: message } of messages) {
        io.out(values.json ? JSON.stringify(message) : describeChannelMessage(message, paint));
      }
      return ExitCode.Ok;
    },
  },
  'channel send': {
    args: '<session-id> <name> <text|->',
    summary:
      'Queue a message from the channel: it is typed below a line naming the channel, so claude answers there. - reads standard input.',
    positionals: 3,
    async run(client, _values, [id, channel, text], io) {
      const { enqueueMessage } = await client.request(EnqueueMessageMutation, {
        sessionId: id!,
        text: await textArgument(text!, io),
        channel: channel!,
      });
      io.out(`${enqueueMessage.id} ${enqueueMessage.status}`);
      return ExitCode.Ok;
    },
  },
  'channel ls': listChannels(),
  channels: listChannels(),
};

/** `channel ls`, also spelt `channels`. */
function listChannels(): Command {
  return {
    args: '[--json]',
    summary: 'List the open channels: name, listeners, time since the last message, description.',
    positionals: 0,
    options: { json: { type: 'boolean' } },
    async run(client, values, _positionals, io) {
      const { channels } = await client.request(ChannelsQuery, {});
      if (values.json) {
        for (const channel of channels) io.out(JSON.stringify(channel));
        return ExitCode.Ok;
      }
      if (channels.length === 0) return ExitCode.Ok;
      const rows = channels.map((c) => [
        c.name,
        String(c.listeners),
        age(c.lastMessageAt),
        c.description ?? '',
      ]);
      io.out(table([['NAME', 'LISTENERS', 'LAST', 'DESCRIPTION'], ...rows]));
      return ExitCode.Ok;
    },
  };
}
