import { hash, timingSafeEqual } from 'node:crypto';
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import { bearerSecret } from '../http/access-gate.js';
import { readBody, sendJson } from '../http/http-io.js';

/** The commands one node asks of another, for sessions the other one runs. */
export const nodeCallOps = [
  'create',
  'resume',
  'stop',
  'interrupt',
  'sendKeys',
  'enqueue',
  'ask',
  'decide',
  'screen',
] as const;
export type NodeCallOp = (typeof nodeCallOps)[number];

export interface NodeCall {
  readonly op: NodeCallOp;
  readonly args: readonly unknown[];
}

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
 * on this node and answers with its result, or with the error a client would have seen.
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
      return sendJson(res, 403, { error: 'not a node of this cluster', code: 'FORBIDDEN' });
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (!body.ok) return sendJson(res, body.status, { error: body.error, code: body.code });
    let call: NodeCall;
    try {
      call = JSON.parse(body.text) as NodeCall;
      if (!nodeCallOps.includes(call.op) || !Array.isArray(call.args)) throw new Error(call.op);
    } catch {
      return sendJson(res, 400, { error: 'not a node call', code: 'BAD_REQUEST' });
    }
    let answer: Answer;
    try {
      answer = { ok: true, value: await run(call) };
    } catch (error) {
      if (error instanceof HubError) {
        const { code, ...extensions } = error.extensions;
        answer = { ok: false, error: { code: String(code), message: error.message, extensions } };
      } else {
        options.log.error({ op: call.op, err: error }, 'node call failed');
        answer = { ok: false, error: { code: 'INTERNAL', message: 'internal error' } };
      }
    }
    sendJson(res, 200, answer);
  };
}

/** Calls other nodes; a node that does not answer is NODE_UNREACHABLE. */
export class NodeClient {
  readonly #secret: string;
  readonly #agent = new Agent({ keepAlive: true });

  constructor(secret: string) {
    this.#secret = secret;
  }

  call(node: string, url: string, call: NodeCall): Promise<unknown> {
    const body = JSON.stringify(call);
    const unreachable = (why: string) =>
      new HubError(ErrorCode.NodeUnreachable, `node ${node} (${url}) did not answer: ${why}`);
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(nodeCallPath, url),
        {
          method: 'POST',
          agent: this.#agent,
          headers: {
            authorization: `Bearer ${this.#secret}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', (error) => reject(unreachable(error.message)));
          res.on('end', () => {
            let answer: Answer;
            try {
              answer = JSON.parse(text) as Answer;
            } catch {
              return reject(unreachable(`status ${res.statusCode}`));
            }
            if (res.statusCode !== 200 || !('ok' in answer)) {
              return reject(unreachable(`status ${res.statusCode}: ${text.slice(0, 200)}`));
            }
            if (answer.ok) return resolve(answer.value);
            const { code, message, extensions } = answer.error;
            reject(new HubError(code as ErrorCode, message, extensions));
          });
        },
      );
      req.on('error', (error) => reject(unreachable(error.message)));
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
