/** The server ended the session (pg_terminate_backend, a restart) or the socket dropped: not the statement's fault, worth one more try on a new connection. */
export function isConnectionLoss(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '57P01' || code === '57P02' || code === '57P03' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNREFUSED') return true;
  return err instanceof Error && /Connection terminated|connection.*(closed|ended)|not queryable/i.test(err.message);
}
