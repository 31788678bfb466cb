import { hash, timingSafeEqual } from 'node:crypto';
import {
  Agent,
  request,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { text } from 'node:stream/consumers';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import { bearerSecret } from '../auth/access-gate.js';
import { readBody, sendError, sendJson } from '../http/http-io.js';
import {
  answerWithinMs,
  parseNodeCall,
  type NodeArgs,
  type NodeCall,
  type NodeCallBounds,
  type NodeOp,
  type NodeResult,
} from './node-ops.js';

type Answer =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: { code: string; message: string; extensions?: Record<string, unknown> };
    };

export const nodeCallPath = '/internal/node-call';

function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/**
 * The endpoint other nodes call: authenticated with the cluster's secret, it runs the command
 * on this node and answers with its result, or with the error a client would have seen. A body
 * that is not a call of the table (see node-ops.ts) gets 400 and a message saying what is wrong.
 */
export function nodeCallEndpoint(
  secret: string,
  run: (call: NodeCall) => Promise<unknown>,
  options: { maxBodyBytes: number; log: Logger },
) {
  const expected = sha256(secret);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const given = bearerSecret(req.headers.authorization);
    if (req.method !== 'POST' || given === undefined || !timingSafeEqual(sha256(given), expected)) {
      req.resume();
      return sendError(res, new HubError(ErrorCode.Forbidden, 'not a node of this cluster'));
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (!body.ok) return sendError(res, body.error);
    const parsed = parseNodeCall(body.text);
    if (!parsed.ok) return sendError(res, new HubError(ErrorCode.BadRequest, parsed.error));
    const { call } = parsed;
    let answer: Answer;
    try {
      answer = { ok: true, value: await run(call) };
    } catch (error) {
      if (error instanceof HubError) {
        const { code, ...extensions } = error.extensions;
        answer = { ok: false, error: { code: String(code), message: error.message, extensions } };
      } else {
        options.log.error({ op: call.op, err: error }, 'node call failed');
        answer = { ok: false, error: { code: ErrorCode.Internal, message: 'internal error' } };
      }
    }
    sendJson(res, 200, answer);
  };
}

/** A node as its callers know it. */
export interface NodeAddress {
  readonly name: string;
  /** Where it is reached: its advertised URL. */
  readonly url: string;
}

/**
 * Calls other nodes. A node that cannot be reached, refuses the call or does not answer within
 * the operation's bound (answerWithinMs) is NODE_UNREACHABLE; its own errors come back as the
 * same HubError.
 */
export class NodeClient {
  readonly #secret: string;
  readonly #bounds: NodeCallBounds;
  readonly #agent = new Agent({ keepAlive: true });

  constructor(secret: string, bounds: NodeCallBounds) {
    this.#secret = secret;
    this.#bounds = bounds;
  }

  async call<K extends NodeOp>(
    node: NodeAddress,
    op: K,
    args: NodeArgs<K>,
  ): Promise<NodeResult<K>> {
    const body = JSON.stringify({ op, args });
    const unreachable = (why: string) =>
      new HubError(ErrorCode.NodeUnreachable, `node ${node.name} (${node.url}) ${why}`);
    const waitMs = answerWithinMs(op, args, this.#bounds);
    const signal = AbortSignal.timeout(waitMs);
    let response: { status: number; text: string };
    try {
      response = await post(new URL(nodeCallPath, node.url), body, {
        method: 'POST',
        agent: this.#agent,
        signal,
        headers: {
          authorization: `Bearer ${this.#secret}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
    } catch (error) {
      throw signal.aborted
        ? unreachable(`did not answer ${op} within ${waitMs} ms`)
        : unreachable(`did not answer ${op}: ${(error as Error).message}`);
    }
    const answer = parseAnswer(response.text);
    if (response.status !== 200 || answer === null) {
      throw unreachable(`refused ${op} (status ${response.status}): ${refusal(response.text)}`);
    }
    if (answer.ok) return answer.value as NodeResult<K>;
    const { code, message, extensions } = answer.error;
    throw new HubError(code as ErrorCode, message, extensions);
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** One request; rejects when the connection fails or `options.signal` aborts it. */
function post(
  url: URL,
  body: string,
  options: RequestOptions,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      text(res).then((answer) => resolve({ status: res.statusCode ?? 0, text: answer }), reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function parseAnswer(text: string): Answer | null {
  try {
    const answer = JSON.parse(text) as unknown;
    return typeof answer === 'object' && answer !== null && 'ok' in answer
      ? (answer as Answer)
      : null;
  } catch {
    return null;
  }
}

/** What a refusing node said: the `error` of its JSON, or the start of whatever it sent. */
function refusal(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error?: unknown };
    if (typeof error === 'string') return error;
  } catch {
    // not JSON: shown as it is
  }
  return text.slice(0, 200);
}
