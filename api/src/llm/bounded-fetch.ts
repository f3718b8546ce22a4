/**
 * A fetch whose response bodies may hold at most `maxBytes` (issue 13). A provider's answer is parsed
 * by the AI SDK before Vance sees a part of it — a tool call that arrives whole (Ollama, Gemini) or
 * one enormous SSE event is buffered and JSON-parsed there — so the only place to bound that work is
 * the byte stream itself: past the limit the body errors, the SDK reports the call as failed, and
 * nothing more is read.
 */
type FetchFunction = typeof globalThis.fetch;

export const DEFAULT_MAX_MODEL_RESPONSE_BYTES = 32 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the response exceeds ${maxBytes} bytes`);
  }
}

export function boundedFetch(inner: FetchFunction, maxBytes: number): FetchFunction {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    let seen = 0;
    const limited = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
        else controller.enqueue(chunk);
      },
    }));
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
