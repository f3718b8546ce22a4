/**
 * The chat log of a process as each turn reads it (issue 18). A turn composes from the whole log;
 * read whole, its cost grew with every turn (the rows, their parsing and, in the composer, their
 * token estimates). The log only grows at its end on the process's lane (every writer is fenced
 * by the lane lease), so this reader keeps each process's log as last read and then reads only the
 * rows after it, with the count of the rows up to it in the same statement: when that count is not
 * what it holds (a failed turn's rows dropped, a turn regenerated, a row that another writer
 * committed out of order), it reads the whole log again. The same message objects come back turn
 * after turn, so what is computed once per message (its token estimate) stays with them.
 */
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import type { ChatLogMessage, MessageRole, StoredToolCall } from '../domain/turns/turn';
import { queryPrepared } from './prepared';

export interface MessageRow {
  id: string;
  process_id: string;
  seq: string;
  role: MessageRole;
  sender_name: string | null;
  content: string;
  tool_call: StoredToolCall | null;
  turn_id: string | null;
  created_at: Date;
}

// Note: ORDER BY must name the table's column (`messages.seq`), not the text alias of the same name.
export const MESSAGE_COLUMNS = 'id, process_id, seq::text AS seq, role, sender_name, content, tool_call, turn_id, created_at';

export function toMessage(r: MessageRow): ChatLogMessage {
  return {
    id: r.id, processId: r.process_id, seq: String(r.seq), role: r.role, senderName: r.sender_name, content: r.content,
    toolCall: r.tool_call, turnId: r.turn_id, createdAt: new Date(r.created_at),
  };
}

interface KnownLog {
  readonly messages: readonly ChatLogMessage[];
  /** The seq of the last message ('0' for an empty log). */
  readonly lastSeq: string;
  /** Characters of content in all: the cache's size, kept as the log grows rather than summed again. */
  readonly chars: number;
}

const charsOf = (messages: readonly ChatLogMessage[]) => messages.reduce((n, m) => n + m.content.length, 0);

/** Logs kept: at most this many processes and this many characters of content in all. */
const MAX_LOGS = 2_000;
/**
 * 4 M characters, not 32 M: the kept logs stay in the server's heap after the session that filled
 * them, and at 32 M a day-like session (large tool arguments and results) left 34 MB of them behind —
 * most of the RSS that did not come back (issue 18, docs/performance.md, Memory). A turn reads on
 * from the kept log of its own process, recently used; a log evicted is read whole once, then kept again.
 */
export const CHAT_LOG_CACHE_CHARS = 4 * 1024 * 1024;

export class ChatLogReader {
  private readonly known: LRUCache<string, KnownLog>;

  constructor(private readonly dataSource: DataSource, maxChars = CHAT_LOG_CACHE_CHARS) {
    this.known = new LRUCache<string, KnownLog>({ max: MAX_LOGS, maxSize: maxChars, sizeCalculation: (log) => log.chars + 1 });
  }

  /** Characters of content kept across all logs (with one per log); for tests and metrics. */
  keptChars(): number {
    return this.known.calculatedSize;
  }

  async list(tenantId: string, processId: string): Promise<ChatLogMessage[]> {
    const key = `${tenantId}/${processId}`;
    const known = this.known.get(key);
    if (known) {
      const rows: (Partial<MessageRow> & { kept: string })[] = await queryPrepared(this.dataSource,
        `SELECT c.kept, m.* FROM (SELECT count(*) AS kept FROM messages WHERE tenant_id = $1 AND process_id = $2 AND seq <= $3) AS c
         LEFT JOIN LATERAL (SELECT messages.seq AS n, ${MESSAGE_COLUMNS} FROM messages WHERE tenant_id = $1 AND process_id = $2 AND seq > $3) AS m ON true
         ORDER BY m.n`,
        [tenantId, processId, known.lastSeq],
      );
      if (Number(rows[0]?.kept) === known.messages.length) {
        const added = rows.filter((r) => r.id != null).map((r) => toMessage(r as MessageRow));
        return this.keep(key, added.length === 0 ? known.messages : [...known.messages, ...added], known.chars + charsOf(added));
      }
    }
    const rows: MessageRow[] = await queryPrepared(this.dataSource,
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE tenant_id = $1 AND process_id = $2 ORDER BY messages.seq`, [tenantId, processId]);
    const messages = rows.map(toMessage);
    return this.keep(key, messages, charsOf(messages));
  }

  /**
   * Where a read of the log elsewhere (beginTurn, issue 18: the chat log comes with the turn) starts:
   * after `lastSeq`, expecting `count` rows up to it. From the start ('0', 0) for a log not kept.
   */
  position(tenantId: string, processId: string): { lastSeq: string; count: number } {
    const known = this.known.get(`${tenantId}/${processId}`);
    return known ? { lastSeq: known.lastSeq, count: known.messages.length } : { lastSeq: '0', count: 0 };
  }

  /**
   * The rows after `from` read elsewhere with the count `kept` of those up to it: the whole log, kept
   * as `list` keeps it. Null when the count is not `from`'s (the log changed behind it): the log is
   * forgotten, and the next `list` reads it whole.
   */
  accept(tenantId: string, processId: string, from: { lastSeq: string; count: number }, kept: number, rows: readonly MessageRow[]): ChatLogMessage[] | null {
    const key = `${tenantId}/${processId}`;
    const known = this.known.get(key);
    if (kept !== from.count || (known ? known.lastSeq !== from.lastSeq : from.count !== 0)) {
      this.known.delete(key);
      return null;
    }
    const added = rows.map(toMessage);
    const before = known?.messages ?? [];
    return this.keep(key, added.length === 0 ? before : [...before, ...added], (known?.chars ?? 0) + charsOf(added));
  }

  private keep(key: string, messages: readonly ChatLogMessage[], chars: number): ChatLogMessage[] {
    this.known.set(key, { messages, lastSeq: messages.at(-1)?.seq ?? '0', chars });
    // A copy: the caller may change its array, not the one kept.
    return [...messages];
  }
}
