/**
 * Log in with an API token (checked with `me`), pick a first project after login, and answer what
 * the caller may do in the selected project (`getPermissions` → Project.myPermissions).
 *
 * A 401 ends the session in `gql` (the token is dropped; the layout logs out); `checkError` never
 * rejects, because react-admin answers a rejected checkError by resolving the failed call with
 * empty data — pages then took a refused write for a success. A 403 is a refusal of one action,
 * shown on the page, never a logout.
 */
import type { AuthProvider } from 'react-admin';
import { ops } from './operations';
import { session } from './session';
import type { ProjectPermission } from './types';
import { disposeWsClient } from './ws';

/** What the caller may do in `project` (none when it is not one of the caller's projects). */
export async function permissionsIn(project: string | null | undefined): Promise<ProjectPermission[]> {
  if (!project || !session.token()) return [];
  const found = (await ops.projects()).find((p) => p.name === project);
  return found ? [...found.myPermissions] : [];
}

export const authProvider: AuthProvider = {
  login: async ({ token }: { token?: string }) => {
    const value = token?.trim();
    if (!value) throw new Error('Enter an API token');
    await ops.me(value).catch(() => {
      throw new Error('This token is not valid');
    });
    session.setToken(value);
    const projects = await ops.projects();
    // A project of another user's session (or one the caller lost) is not kept.
    if (!projects.some((p) => p.name === session.project())) {
      const first = projects.find((p) => p.kind === 'NORMAL') ?? projects[0];
      session.setProject(first?.name ?? null);
    }
  },
  logout: async () => {
    session.setToken(null, { silent: true });
    disposeWsClient();
  },
  checkAuth: async () => {
    if (!session.token()) throw new Error('Not logged in');
  },
  checkError: async () => undefined,
  getIdentity: async () => {
    const me = await ops.me();
    return { id: me.id, fullName: `${me.login} (${me.tenant.name})`, role: me.role };
  },
  getPermissions: async (params: { project?: string | null }) => permissionsIn(params?.project),
};
