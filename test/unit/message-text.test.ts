import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  headlessContent,
  mayOpenAMode,
  promptCarries,
  readsAsCommand,
} from '../../src/runtime/prompt-input.js';
import { controlCharacterIn } from '../../src/runtime/terminal-text.js';
import { hubSecrets, sessionEnvironment } from '../../src/runtime/session-env.js';
import { literalArg } from '../../src/runtime/tmux-pane.js';
import { checkMessageText, MessageKind } from '../../src/sessions/message-text.js';

/** One text per family of characters a terminal takes as keys, with the code point refused. */
const families: [string, string, number][] = [
  ['NUL', 'a\u0000b', 0x00],
  ['BEL', 'a\u0007b', 0x07],
  ['backspace', 'a\bb', 0x08],
  ['VT', 'a\u000bb', 0x0b],
  ['FF', 'a\u000cb', 0x0c],
  ['Ctrl-U', 'a\u0015b', 0x15],
  ['CSI (Shift-Tab)', 'a\u001b[Zb', 0x1b],
  ['paste end marker', 'x\u001b[201~!touch /tmp/x\r', 0x1b],
  ['paste start marker', '\u001b[200~x', 0x1b],
  ['OSC', 'a\u001b]0;title\u0007', 0x1b],
  ['DCS', 'a\u001bPq#0\u001b\\', 0x1b],
  ['SS3', 'a\u001bOA', 0x1b],
  ['DEL', 'a\u007fb', 0x7f],
  ['C1 CSI', 'a\u009b201~b', 0x9b],
  ['C1 NEL', 'a\u0085b', 0x85],
  ['lone high surrogate', 'a\ud800b', 0xd800],
  ['lone low surrogate', 'a\udc00b', 0xdc00],
];

describe('message text', () => {
  it.each(families)('refuses %s, naming where it is', (_family, text, codePoint) => {
    const found = controlCharacterIn(text);
    expect(found?.codePoint).toBe(codePoint);
    expect(() => checkMessageText(text, 'text', MessageKind.Prompt)).toThrow(
      expect.objectContaining({
        extensions: expect.objectContaining({ code: 'CONTROL_CHARACTER', codePoint }),
      }),
    );
  });

  it('keeps tab, line breaks, quotes, emoji and CJK as text', () => {
    const text = 'a\tb\nc\r\nd "$x" `y` \\ 😀 漢字 \u2028';
    expect(controlCharacterIn(text)).toBeNull();
    expect(() => checkMessageText(text, 'text', MessageKind.Prompt)).not.toThrow();
  });

  it('says the line and column of the character', () => {
    expect(controlCharacterIn('ab\ncd\u001b')).toEqual({
      codePoint: 0x1b,
      name: 'U+001B (ESC)',
      index: 5,
      line: 2,
      column: 3,
    });
    // Code points, not UTF-16 units: the emoji counts once.
    expect(controlCharacterIn('😀\u0007')?.index).toBe(1);
  });

  it('finds every refused character wherever it stands', () => {
    const refused = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 9 && c !== 10 && c !== 13),
      fc.integer({ min: 0x7f, max: 0x9f }),
    );
    fc.assert(
      fc.property(fc.string(), refused, fc.string(), (before, code, after) => {
        const clean = (text: string) =>
          text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff]/g, '');
        const text = `${clean(before)}${String.fromCharCode(code)}${clean(after)}`;
        expect(controlCharacterIn(text)?.codePoint).toBe(code);
      }),
      { seed: 42 },
    );
  });

  it('takes a command or a shell line on one line only, a command with its name', () => {
    expect(() => checkMessageText('/compact\nnow', 'text', MessageKind.SlashCommand)).toThrow(
      /one line/,
    );
    expect(() => checkMessageText('compact', 'text', MessageKind.SlashCommand)).toThrow(
      /starts with "\/"/,
    );
    expect(() =>
      checkMessageText('/compact keep it', 'text', MessageKind.SlashCommand),
    ).not.toThrow();
    expect(() => checkMessageText('ls\nrm x', 'text', MessageKind.Shell)).toThrow(/one line/);
    expect(() => checkMessageText('  ', 'text', MessageKind.Prompt)).toThrow(/empty/);
  });
});

describe("claude's input", () => {
  it('knows what claude would act on rather than send to the model', () => {
    for (const text of ['/clear', '  /compact now', 'exit', ' quit ', ':q!', '/', '/ x', '//'])
      expect(readsAsCommand(text)).toBe(true);
    for (const text of ['!touch x', 'exit now', 'a /clear', 'hello', '#note', '/etc/hosts is'])
      expect(readsAsCommand(text)).toBe(false);
  });

  it('keeps text off an empty box unless it starts with a letter or a digit', () => {
    for (const text of ['!touch x', '?', '#note', ' x', '\tx', '-x', '@file', '\u2060x'])
      expect(mayOpenAMode(text)).toBe(true);
    for (const text of ['hello', 'Émile', '漢字', '42 things', 'ß'])
      expect(mayOpenAMode(text)).toBe(false);
  });

  it('recognises the prompt claude reports, as typed, pasted whole or in blocks', () => {
    expect(promptCarries('hello  world', 'hello  world')).toBe(true);
    expect(promptCarries('a    b', 'a\tb')).toBe(true);
    expect(
      promptCarries(
        '\n\n<pasted_content id="58fc">\n/clear\n\n\n</pasted_content id="58fc">\n',
        '/clear',
      ),
    ).toBe(true);
    expect(promptCarries('/\nclear the cache', '/clear the cache')).toBe(true);
    expect(promptCarries('/clear', 'clear')).toBe(false);
    expect(promptCarries('<pasted_content id="1">\nx\n</pasted_content id="2">', 'x')).toBe(false);
  });

  it('splits a headless prompt so its last block starts with no slash', () => {
    expect(headlessContent('hello')).toBe('hello');
    expect(headlessContent('exit')).toBe('exit');
    expect(headlessContent(' //x y')).toEqual([
      { type: 'text', text: ' //' },
      { type: 'text', text: 'x y' },
    ]);
    expect(headlessContent('//')).toEqual([
      { type: 'text', text: '//' },
      { type: 'text', text: '\u2060' },
    ]);
  });
});

describe('session environment', () => {
  it("keeps none of the hub's variables or secrets", () => {
    const secrets = hubSecrets({
      token: 'admin-secret-0123456789',
      tokensFile: '/etc/hub/tokens.json',
      redisUrl: 'redis://:p4ssw0rd-redis@127.0.0.1:6379/0',
    });
    const env = sessionEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/root',
        ANTHROPIC_API_KEY: 'sk-ant-key',
        CLAUDE_HUB_TOKEN: 'admin-secret-0123456789',
        CLAUDE_HUB_SOME_FUTURE_OPTION: 'x',
        MY_COPY_OF_TOKEN: 'Bearer admin-secret-0123456789',
        REDIS: 'redis://:p4ssw0rd-redis@127.0.0.1:6379/0',
        ONLY_PASSWORD: 'p4ssw0rd-redis',
        TOKENS: '/etc/hub/tokens.json',
        TMUX: '/tmp/tmux-0/default,1,0',
        'BAD-NAME': 'x',
        UNSET: undefined,
      },
      secrets,
    );
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root', ANTHROPIC_API_KEY: 'sk-ant-key' });
  });
});

describe('tmux arguments', () => {
  it('escapes a final semicolon, which tmux reads as the end of a command', () => {
    expect(literalArg('model;')).toBe('model\\;');
    expect(literalArg('a\\;')).toBe('a\\\\;');
    expect(literalArg('a;b')).toBe('a;b');
    expect(literalArg('plain')).toBe('plain');
  });
});
