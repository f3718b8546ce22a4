/**
 * The HTTP adapter of document tools (domain/tools/http-tool-caller.ts), over Node's fetch. Redirects
 * are followed by hand (at most MAX_REDIRECTS) because the rule is ours, not the library's: a request
 * that carries a secret never follows a redirect to an origin the secret is not bound to — the
 * refusal is a SecretNotBoundError before the next request is made. The body is read up to the cap
 * and the connection dropped after it; the timeout covers the whole exchange, redirects and body.
 */
import { SecretNotBoundError, ToolCallFailedError } from '../domain/tools/tool-call-errors';
import type { HttpToolCaller, OutboundRequest, OutboundResponse } from '../domain/tools/http-tool-caller';
import { assertPublicHost } from './public-address';

const MAX_REDIRECTS = 5;

export interface FetchHttpToolCallerOptions {
  /** Loopback and private addresses may be called (VANCE_TOOL_HTTP_PRIVATE_NETWORK); default false. */
  readonly privateNetwork?: boolean;
}

export class FetchHttpToolCaller implements HttpToolCaller {
  constructor(private readonly options: FetchHttpToolCallerOptions = {}) {}

  async send(request: OutboundRequest, signal?: AbortSignal): Promise<OutboundResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let url = request.url;
    let method = request.method;
    let body = request.body;
    try {
      for (let hop = 0; ; hop++) {
        if (!this.options.privateNetwork) await assertPublicHost(url);
        const response = await fetch(url, { method, headers: request.headers, body, redirect: 'manual', signal: abort });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location !== null) {
          await response.body?.cancel().catch(() => undefined);
          if (hop >= MAX_REDIRECTS) throw new ToolCallFailedError(`${request.method} ${request.url.origin}: more than ${MAX_REDIRECTS} redirects`);
          const next = new URL(location, url);
          if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new ToolCallFailedError(`a redirect to '${next.protocol}' is not followed`);
          if (request.secretOrigins !== null && !request.secretOrigins.includes(next.origin)) {
            throw new SecretNotBoundError(request.secretSettings[0] ?? 'a secret', `${next.origin} (a redirect from ${url.origin})`, request.secretOrigins);
          }
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
            method = 'GET';
            body = null;
          }
          url = next;
          continue;
        }
        const { text, truncated } = await readCapped(response, request.maxResponseBytes);
        return { status: response.status, contentType: response.headers.get('content-type'), body: text, truncated };
      }
    } catch (error) {
      if (error instanceof SecretNotBoundError || error instanceof ToolCallFailedError) throw error;
      if (timeout.aborted) throw new ToolCallFailedError(`${request.method} ${request.url.origin}${request.url.pathname} did not answer within ${request.timeoutMs} ms`);
      if (signal?.aborted) throw new ToolCallFailedError('the call was cancelled with the turn');
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new ToolCallFailedError(`${request.method} ${request.url.origin}${request.url.pathname} failed: ${cause}`);
    }
  }
}

/** The body as text, at most `max` bytes (a multi-byte character cut at the edge becomes U+FFFD). */
async function readCapped(response: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      chunks.push(value.subarray(0, max - size));
      size = max;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: Buffer.concat(chunks, size).toString('utf8'), truncated };
}
