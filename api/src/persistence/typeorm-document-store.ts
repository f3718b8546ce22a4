/**
 * The DocumentStore port on PostgreSQL/PGlite. Every write is ONE SQL statement: a conditional
 * upsert (or update) of the `documents` row plus its `document_versions` row in a data-modifying
 * CTE, so concurrent writers are serialised by the row lock and never lose an update, and a failed
 * expectedVersion check writes nothing. Every statement filters by tenant AND project.
 *
 * A write with `announce` NOTIFYs its DocumentChanged in the same statement (commit-notifier.ts,
 * issue 14): the other instances hear of it exactly when it commits, and this instance's
 * subscribers after the statement, so a committed write is never reported as failed by a publish
 * after it, and a failed write announced nothing.
 */
import type { DataSource } from 'typeorm';
import type { DocumentRevision, StoredDocument } from '../domain/cascade/document';
import type { DeleteDocumentCommand, DocumentAnnouncement, DocumentStore, ProjectRef, PutDocumentCommand } from '../domain/cascade/document-store';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from '../domain/events/document-changed';
import { randomUUID } from 'node:crypto';
import { announcedWrite, isoTimeSql, notifyCte, SILENT_NOTIFIER, type CommitNotifier } from './commit-notifier';
import { confirmedWrite } from './confirm-write';
import { VersionConflictError } from '../domain/cascade/errors';
import { NotFoundError } from '../domain/errors';
import { translateDbError } from './translate-db-error';
import { isUuid } from './uuid';


/**
 * A write statement (ending in `SELECT … FROM up`) that also NOTIFYs the DocumentChanged of the row
 * `up` wrote; `first` is the number of its last parameter, the four after it are channel, topic,
 * origin and layer. The final SELECT gains `updated_at`, the event's time.
 */
function announcing(sql: string, first: number, change: DocumentChanged['change']): string {
  const [channel, topic, origin, layer] = [1, 2, 3, 4].map((n) => `$${first + n}`) as [string, string, string, string];
  const event = `jsonb_build_object('tenantId', tenant_id, 'projectId', project_id, 'layer', ${layer}::text, 'path', path, 'version', version,
    'change', '${change}', 'author', updated_by, 'at', ${isoTimeSql('updated_at')})`;
  const at = sql.lastIndexOf('SELECT ');
  return `${sql.slice(0, at).trimEnd()}, ${notifyCte('sent', 'up', { channel, topic, origin }, event, event, 'id')}
  ${sql.slice(at).replace(' FROM up', ', up.updated_at AS announced_at FROM up CROSS JOIN (SELECT count(*) FROM sent) n')}`;
}

interface DocumentRow {
  id: string;
  tenant_id: string;
  project_id: string;
  path: string;
  content: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
}

interface RevisionRow {
  version: number;
  content: string | null;
  deleted: boolean;
  created_at: Date;
  author: string | null;
}

const DOCUMENT_COLUMNS = 'id, tenant_id, project_id, path, content, version, created_at, updated_at, updated_by';

/**
 * Appends the history row of whatever `up` wrote; `up` must return the documents row. The row's id
 * is chosen by the caller (`historyId`, a placeholder): after a lost connection it tells whether
 * the write committed (confirm-write.ts).
 */
const recordHistory = (historyId: string): string => `
  hist AS (
    INSERT INTO document_versions (id, document_id, tenant_id, project_id, path, version, content, deleted, author)
    SELECT ${historyId}::uuid, id, tenant_id, project_id, path, version, CASE WHEN deleted_at IS NULL THEN content END,
           deleted_at IS NOT NULL, updated_by
    FROM up
  )`;

/**
 * expectedVersion undefined or 0. A new path inserts version 1. An existing row (live, or soft
 * deleted, since the unique key covers both) is updated to version + 1 when the condition holds:
 * always ($6 = true), or only when nothing is live (expectedVersion 0). A recreate therefore
 * continues the version sequence. No row returned = the condition failed and nothing was written.
 */
const UPSERT = `
  WITH up AS (
    INSERT INTO documents AS d (tenant_id, project_id, path, content, version, updated_by)
    VALUES ($1, $2, $3, $4, 1, $5)
    ON CONFLICT (project_id, path) DO UPDATE SET
      content = EXCLUDED.content,
      version = d.version + 1,
      created_at = CASE WHEN d.deleted_at IS NULL THEN d.created_at ELSE now() END,
      updated_at = now(),
      updated_by = EXCLUDED.updated_by,
      deleted_at = NULL
    WHERE d.tenant_id = EXCLUDED.tenant_id AND ($6::boolean OR d.deleted_at IS NOT NULL)
    RETURNING d.*
  ), ${recordHistory('$7')}
  SELECT ${DOCUMENT_COLUMNS} FROM up`;

/** expectedVersion n > 0: only a live row at exactly version n is updated (no insert). */
const UPDATE_AT_VERSION = `
  WITH up AS (
    UPDATE documents AS d SET content = $4, version = d.version + 1, updated_at = now(), updated_by = $5
    WHERE d.tenant_id = $1 AND d.project_id = $2 AND d.path = $3 AND d.deleted_at IS NULL AND d.version = $6
    RETURNING d.*
  ), ${recordHistory('$7')}
  SELECT ${DOCUMENT_COLUMNS} FROM up`;

/** Soft delete of the live row (optionally only at version $5): version + 1, a `deleted` history row. */
const SOFT_DELETE = `
  WITH up AS (
    UPDATE documents AS d SET version = d.version + 1, deleted_at = now(), updated_at = now(), updated_by = $4
    WHERE d.tenant_id = $1 AND d.project_id = $2 AND d.path = $3 AND d.deleted_at IS NULL
      AND ($5::integer IS NULL OR d.version = $5)
    RETURNING d.*
  ), ${recordHistory('$6')}
  SELECT version FROM up`;

export class TypeOrmDocumentStore implements DocumentStore {
  constructor(private readonly dataSource: DataSource, private readonly notifier: CommitNotifier = SILENT_NOTIFIER) {}

  /** The statement and its parameters, announcing when the command asks to; `deliver` tells this instance after it. */
  private statement(sql: string, params: unknown[], change: DocumentChanged['change'], announce: DocumentAnnouncement | undefined) {
    if (!announce) return { sql, params, deliver: () => {} };
    return {
      sql: announcing(sql, params.length, change),
      params: [...params, this.notifier.channel, DOCUMENT_CHANGED_TOPIC, this.notifier.origin, announce.layer],
      deliver: (ref: ProjectRef & { path: string; author: string | null }, version: number, at: Date) => this.notifier.deliverLocal(DOCUMENT_CHANGED_TOPIC, {
        tenantId: ref.tenantId, projectId: ref.projectId, layer: announce.layer, path: ref.path, version, change, author: ref.author, at: new Date(at).toISOString(),
      } satisfies DocumentChanged),
    };
  }

  async find(ref: ProjectRef, path: string): Promise<StoredDocument | null> {
    if (!validRef(ref)) return null;
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents
       WHERE tenant_id = $1 AND project_id = $2 AND path = $3 AND deleted_at IS NULL`,
      [ref.tenantId, ref.projectId, path],
    );
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async listByPrefix(ref: ProjectRef, prefix: string): Promise<StoredDocument[]> {
    if (!validRef(ref)) return [];
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents
       WHERE tenant_id = $1 AND project_id = $2 AND deleted_at IS NULL AND path LIKE $3 ESCAPE '\\'
       ORDER BY path`,
      [ref.tenantId, ref.projectId, `${escapeLike(prefix)}%`],
    );
    return rows.map(toDocument);
  }

  async put(command: PutDocumentCommand): Promise<StoredDocument> {
    const { tenantId, projectId, path, content, author, expectedVersion } = command;
    if (!validRef(command)) throw new NotFoundError('Project', projectId);
    const conditional = expectedVersion !== undefined && expectedVersion > 0;
    const historyId = randomUUID();
    const write = this.statement(conditional ? UPDATE_AT_VERSION : UPSERT,
      [tenantId, projectId, path, content, author, conditional ? expectedVersion : expectedVersion === undefined, historyId], 'PUT', command.announce);
    // A lost connection: the history row's id says whether the write committed.
    const rows = await confirmedWrite(`the write of '${path}'`, () => announcedWrite(this.notifier, () => this.write<DocumentRow>(write.sql, write.params, projectId)), async () => {
      const found: DocumentRow[] = await this.dataSource.query(
        `SELECT d.id, d.tenant_id, d.project_id, d.path, v.content, v.version, d.created_at, v.created_at AS updated_at, v.author AS updated_by
         FROM document_versions v JOIN documents d ON d.id = v.document_id WHERE v.id = $1 AND v.tenant_id = $2`, [historyId, tenantId]);
      return found.length > 0 ? found : null;
    });
    if (rows[0]) {
      write.deliver(command, rows[0].version, rows[0].updated_at);
      return toDocument(rows[0]);
    }
    // Nothing was written. An unconditional upsert only fails when the path's row belongs to
    // another tenant, i.e. the project is not the caller's: "not found", never a hint (DESIGN §6).
    if (expectedVersion === undefined) throw new NotFoundError('Project', projectId);
    throw new VersionConflictError(path, expectedVersion, await this.liveVersion(command, path));
  }

  async delete(command: DeleteDocumentCommand): Promise<number | null> {
    const { tenantId, projectId, path, author, expectedVersion } = command;
    if (!validRef(command)) return null;
    const historyId = randomUUID();
    const write = this.statement(SOFT_DELETE, [tenantId, projectId, path, author, expectedVersion ?? null, historyId], 'DELETE', command.announce);
    const rows = await confirmedWrite(`the deletion of '${path}'`, () => announcedWrite(this.notifier, () => this.write<{ version: number; announced_at?: Date }>(write.sql, write.params, projectId)), async () => {
      const found: { version: number; announced_at: Date }[] = await this.dataSource.query(
        `SELECT version, created_at AS announced_at FROM document_versions WHERE id = $1 AND tenant_id = $2`, [historyId, tenantId]);
      return found.length > 0 ? found : null;
    });
    if (rows[0]) {
      write.deliver(command, rows[0].version, rows[0].announced_at ?? new Date());
      return rows[0].version;
    }
    const actual = await this.liveVersion(command, path);
    // Nothing live and nothing required to be live: a no-op, like the port says.
    if (expectedVersion === undefined || (expectedVersion === 0 && actual === null)) return null;
    throw new VersionConflictError(path, expectedVersion, actual);
  }

  async history(ref: ProjectRef, path: string): Promise<DocumentRevision[]> {
    if (!validRef(ref)) return [];
    const rows: RevisionRow[] = await this.dataSource.query(
      `SELECT v.version, v.content, v.deleted, v.created_at, v.author
       FROM documents d JOIN document_versions v ON v.document_id = d.id
       WHERE d.tenant_id = $1 AND d.project_id = $2 AND d.path = $3
         AND v.tenant_id = $1 AND v.project_id = $2
       ORDER BY v.version DESC`,
      [ref.tenantId, ref.projectId, path],
    );
    return rows.map((r) => ({ version: r.version, content: r.content, deleted: r.deleted, createdAt: r.created_at, author: r.author }));
  }

  private async write<T>(sql: string, params: unknown[], projectId: string): Promise<T[]> {
    try {
      return (await this.dataSource.query(sql, params)) as T[];
    } catch (err) {
      // The composite key (tenant_id, project_id) → projects rejects a project of another tenant.
      throw translateDbError(err, { fk_documents_project: ['Project', projectId] });
    }
  }

  /** For the conflict message only: the version found after the failed write (null = none live). */
  private async liveVersion(ref: ProjectRef, path: string): Promise<number | null> {
    const rows: Array<{ version: number }> = await this.dataSource.query(
      'SELECT version FROM documents WHERE tenant_id = $1 AND project_id = $2 AND path = $3 AND deleted_at IS NULL',
      [ref.tenantId, ref.projectId, path],
    );
    return rows[0]?.version ?? null;
  }
}

/** LIKE treats %, _ and the escape character specially; a prefix must match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function validRef(ref: ProjectRef): boolean {
  return isUuid(ref.tenantId) && isUuid(ref.projectId);
}

function toDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    path: row.path,
    content: row.content,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}
