/**
 * A local HTTP server (127.0.0.1, port 0) that speaks just enough of the OpenAI chat-completions and
 * Anthropic messages streaming wire formats (SSE) to drive the real provider code. Each test sets a
 * `handler`; every request is recorded (method, path, headers, parsed JSON body).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  handler: Handler = (_req, res) => {
    res.writeHead(500).end();
  };
  private server: Server | undefined;
  private port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} };
    this.requests.push(recorded);
    await this.handler(recorded, res);
  }
}

/** Opens an SSE response; `send` writes one event, `end` finishes, `drop` kills the socket mid-stream. */
export function sse(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    data(payload: unknown) {
      res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
    },
    event(name: string, payload: unknown) {
      res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    },
    end() {
      res.end();
    },
    drop() {
      res.socket?.destroy();
    },
  };
}

export function jsonError(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

// ---- OpenAI chat-completions chunks ----

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test' };

export const openai = {
  text(content: string, role = false) {
    return { ...base, choices: [{ index: 0, delta: { ...(role ? { role: 'assistant' } : {}), content }, finish_reason: null }] };
  },
  toolStart(index: number, id: string, name: string) {
    return { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }, finish_reason: null }] };
  },
  toolArgs(index: number, fragment: string) {
    return { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: fragment } }] }, finish_reason: null }] };
  },
  finish(reason: string) {
    return { ...base, choices: [{ index: 0, delta: {}, finish_reason: reason }] };
  },
  usage(prompt: number, completion: number) {
    return { ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
  },
};

// ---- Anthropic messages events ----

export const anthropic = {
  messageStart(inputTokens: number) {
    return ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }] as const;
  },
  textStart(index: number) {
    return ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }] as const;
  },
  textDelta(index: number, text: string) {
    return ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }] as const;
  },
  toolStart(index: number, id: string, name: string) {
    return ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }] as const;
  },
  toolDelta(index: number, partial: string) {
    return ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } }] as const;
  },
  blockStop(index: number) {
    return ['content_block_stop', { type: 'content_block_stop', index }] as const;
  },
  messageDelta(stopReason: string, outputTokens: number) {
    return ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }] as const;
  },
  messageStop() {
    return ['message_stop', { type: 'message_stop' }] as const;
  },
};
