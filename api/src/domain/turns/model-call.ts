import { DomainError } from '../errors';
import { ModelCallError } from '../llm/errors';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../llm/model-provider';

/**
 * One model call with a deadline: the provider gets an AbortSignal, and a stream that does not make
 * progress before the deadline ends with ModelCallError PROVIDER_TIMEOUT. Anything else a provider
 * throws that is not a DomainError becomes PROVIDER_ERROR, so the turn fails with a code.
 */
export async function* callWithDeadline(provider: ModelProvider, request: ModelCallRequest, timeoutMs: number): AsyncIterable<ModelStreamEvent> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ModelCallError('PROVIDER_TIMEOUT', `The model did not answer within ${timeoutMs} ms`, request.provider));
    }, timeoutMs);
  });
  timedOut.catch(() => undefined);
  try {
    const iterator = provider.stream({ ...request, signal: controller.signal })[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await Promise.race([iterator.next(), timedOut]);
        if (next.done) return;
        yield next.value;
      }
    } finally {
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new ModelCallError('PROVIDER_ERROR', err instanceof Error ? err.message : String(err), request.provider);
  } finally {
    clearTimeout(timer);
  }
}
