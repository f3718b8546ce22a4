/** The live turn stream of one process over graphql-ws (`turnEvents`), persisted events first, then live. */
import { useEffect, useState } from 'react';
import { wsClient } from '../api/ws';
import type { TurnEvent } from '../api/types';

const TURN_EVENTS = 'subscription($id: ID!) { turnEvents(processId: $id) { id processId turnId type payload at } }';

export function useTurnStream(processId: string, onEvent?: (e: TurnEvent) => void): { events: TurnEvent[]; status: string } {
  const [events, setEvents] = useState<TurnEvent[]>([]);
  const [status, setStatusState] = useState('connecting');
  useEffect(() => {
    // Callbacks of a stopped subscription (unsubscribing completes it) must not touch the state.
    let active = true;
    const setStatus = (s: string) => active && setStatusState(s);
    setEvents([]);
    setStatus('connecting');
    const client = wsClient();
    const offConnected = client.on('connected', () => setStatus('live'));
    const offClosed = client.on('closed', () => setStatus('closed'));
    const stop = client.subscribe<{ turnEvents: TurnEvent }>({ query: TURN_EVENTS, variables: { id: processId } }, {
      next: (r) => {
        const e = r.data?.turnEvents;
        if (!e || !active) return;
        setStatus('live');
        setEvents((prev) => (prev.some((x) => x.id === e.id) ? prev : [...prev, e].slice(-500)));
        onEvent?.(e);
      },
      error: (err) => setStatus(`error: ${err instanceof Error ? err.message : JSON.stringify(err)}`),
      complete: () => setStatus('closed'),
    });
    return () => { active = false; stop(); offConnected(); offClosed(); };
  }, [processId]);
  return { events, status };
}
