/**
 * The port an HTTP tool document's call goes through (issue 19); the adapter (server-tools/) does the
 * HTTP. It must keep to the request's limits: the timeout, the response size cap, and — when the
 * request carries a secret — follow no redirect to an origin outside `secretOrigins` (it throws
 * SecretNotBoundError instead).
 */
export interface OutboundRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Null without secrets; else the origins the request and its redirects may go to. */
  readonly secretOrigins: readonly string[] | null;
  /** The secret settings carried, for the refusal's message. */
  readonly secretSettings: readonly string[];
}

export interface OutboundResponse {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
  /** The body was longer than maxResponseBytes and was cut. */
  readonly truncated: boolean;
}

export interface HttpToolCaller {
  send(request: OutboundRequest, signal?: AbortSignal): Promise<OutboundResponse>;
}
