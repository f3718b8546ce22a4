/**
 * The dashboard's own login gate (in place of react-admin's `requireAuth`): without a token it logs
 * out once, which navigates to the login page once. react-admin's gate re-checked auth after every
 * logout's query reset and remounted its logout route each time: a first visit navigated to
 * #/login some 1,700 times in 12 s before the form settled (issue 17). The token is in
 * localStorage, so whether there is a session needs no request; a token the API refuses is dropped
 * by `gql` on its first 401, and this gate hears that through the session listener.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useLogout, useRefresh } from 'react-admin';
import { onRefused } from '../api/graphql';
import { session } from '../api/session';

// One logout per lost session, even when react-admin mounts the layout twice while it sets up
// (a loaded machine did: two redirects to #/login). A gate that sees a token again re-arms it.
let leaving = false;

export function RequireSession({ children }: { children: ReactNode }) {
  const [token, setToken] = useState(session.token());
  const logout = useLogout();
  const refresh = useRefresh();
  useEffect(() => session.onTokenChange(setToken), []);
  // A FORBIDDEN means the permissions the page offered were stale: reload them, so the refused
  // action is no longer offered.
  useEffect(() => onRefused(refresh), [refresh]);
  const missing = !token;
  useEffect(() => {
    if (!missing) {
      leaving = false;
    } else if (!leaving) {
      leaving = true;
      void logout();
    }
  }, [missing]);
  return missing ? null : <>{children}</>;
}
