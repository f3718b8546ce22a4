/**
 * The MCP SDK's own client (StreamableHTTPClientTransport) against a started Vance's `/mcp`, with
 * the Skills extension's methods (SEP-2640), which the SDK does not know, sent as plain requests.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

export interface SkillResource { uri: string; digest: string; size: number }
export interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string; [field: string]: unknown };
  resources: SkillResource[];
  _meta: Record<string, unknown>;
}

const Loose = z.looseObject({});

export function mcpUrl(graphqlUrl: string, project?: string): URL {
  const url = new URL('/mcp', graphqlUrl);
  if (project !== undefined) url.searchParams.set('project', project);
  return url;
}

export interface SkillsClient {
  readonly client: Client;
  /** Every page of skills/list, following nextCursor. */
  listSkills(): Promise<{ skills: SkillEntry[]; pages: Record<string, unknown>[] }>;
  getSkill(uri: string): Promise<Record<string, unknown>>;
  read(uri: string): Promise<{ uri: string; mimeType?: string; text: string }>;
  /** Resolves on the next `notifications/resources/list_changed`. */
  nextListChanged(): Promise<void>;
  close(): Promise<void>;
}

export async function connectSkills(url: URL, token: string | null, headers: Record<string, string> = {}): Promise<SkillsClient> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  const client = new Client({ name: 'vance-test', version: '1.0.0' });
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  });
  await client.connect(transport);
  const request = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params } as never, Loose) as Promise<Record<string, unknown>>;
  return {
    client,
    async listSkills() {
      const skills: SkillEntry[] = [];
      const pages: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = await request('skills/list', cursor === undefined ? {} : { cursor });
        pages.push(page);
        skills.push(...(page.skills as SkillEntry[]));
        cursor = page.nextCursor as string | undefined;
      } while (cursor !== undefined);
      return { skills, pages };
    },
    getSkill: (uri) => request('skills/get', { uri }),
    async read(uri) {
      const result = await client.readResource({ uri });
      return result.contents[0] as { uri: string; mimeType?: string; text: string };
    },
    nextListChanged: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () => client.close(),
  };
}

export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}
