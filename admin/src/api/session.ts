/**
 * The browser session: the API token and the selected project, kept in localStorage. The data
 * provider reads them at call time, so switching project needs only a refresh of the queries.
 */
const TOKEN_KEY = 'vance.token';
const PROJECT_KEY = 'vance.project';

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  setToken: (token: string | null): void => {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  },
  project: (): string | null => localStorage.getItem(PROJECT_KEY),
  setProject: (project: string | null): void => {
    if (project) localStorage.setItem(PROJECT_KEY, project);
    else localStorage.removeItem(PROJECT_KEY);
    for (const listener of listeners) listener(project);
  },
  onProjectChange: (listener: (project: string | null) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const listeners = new Set<(project: string | null) => void>();
