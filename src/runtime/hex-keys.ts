/** The arguments of `send-keys -H`: each byte as two hex digits, which tmux writes as it is. */
export function hexKeys(bytes: Uint8Array): string[] {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'));
}
