/**
 * The browser session: the API token and the selected project, kept in localStorage. The data
 * provider reads them at call time, so switching project needs only a refresh of the queries.
 * Listeners hear both change: the layout leaves for the login page the moment the token goes
 * (a 401, a logout in another tab), and pages refresh on a project switch.
 */
const TOKEN_KEY = 'vance.token';
const PROJECT_KEY = 'vance.project';

type Listener = (value: string | null) => void;
const tokenListeners = new Set<Listener>();
const projectListeners = new Set<Listener>();

const notify = (set: Set<Listener>, value: string | null) => {
  for (const listener of set) listener(value);
};
const subscribe = (set: Set<Listener>, listener: Listener): (() => void) => {
  set.add(listener);
  return () => set.delete(listener);
};

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  /** `silent`: the logout itself drops the token; telling the layout would start a second logout. */
  setToken: (token: string | null, { silent = false } = {}): void => {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
    if (!silent) notify(tokenListeners, token);
  },
  onTokenChange: (listener: Listener): (() => void) => subscribe(tokenListeners, listener),
  project: (): string | null => localStorage.getItem(PROJECT_KEY),
  setProject: (project: string | null): void => {
    if (project) localStorage.setItem(PROJECT_KEY, project);
    else localStorage.removeItem(PROJECT_KEY);
    notify(projectListeners, project);
  },
  onProjectChange: (listener: Listener): (() => void) => subscribe(projectListeners, listener),
};

// Another tab logged out or in: the same as here.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === TOKEN_KEY || e.key === null) notify(tokenListeners, localStorage.getItem(TOKEN_KEY));
  });
}
