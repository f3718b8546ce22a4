/**
 * Log in with an API token (checked with `me`), log out on 401/403 — which `gql` derives from
 * `extensions.code` UNAUTHENTICATED / FORBIDDEN — and pick a first project after login.
 */
import type { AuthProvider } from 'react-admin';
import { ops } from './operations';
import { session } from './session';
import { disposeWsClient } from './ws';

export const authProvider: AuthProvider = {
  login: async ({ token }: { token?: string }) => {
    const value = token?.trim();
    if (!value) throw new Error('Enter an API token');
    await ops.me(value).catch(() => {
      throw new Error('This token is not valid');
    });
    session.setToken(value);
    if (!session.project()) {
      const projects = await ops.projects();
      const first = projects.find((p) => p.kind === 'NORMAL') ?? projects[0];
      session.setProject(first?.name ?? null);
    }
  },
  logout: async () => {
    session.setToken(null);
    disposeWsClient();
  },
  checkAuth: async () => {
    if (!session.token()) throw new Error('Not logged in');
  },
  checkError: async (error: { status?: number }) => {
    if (error?.status === 401 || error?.status === 403) {
      session.setToken(null);
      throw new Error('Your session ended; log in again');
    }
  },
  getIdentity: async () => {
    const me = await ops.me();
    return { id: me.id, fullName: `${me.login} (${me.tenant.name})`, role: me.role };
  },
  getPermissions: async () => null,
};
