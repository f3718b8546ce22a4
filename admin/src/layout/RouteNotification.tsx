/**
 * react-admin's toast, closed when the page changes (issue 17 point 7): keyed by the route, it
 * remounts on navigation and drops what the previous page showed. A toast raised together with the
 * navigation it causes (notify, then redirect in the same handler) is taken by the new one and stays.
 */
import { Notification } from 'react-admin';
import { useLocation } from 'react-router-dom';

export function RouteNotification() {
  const { pathname } = useLocation();
  return <Notification key={pathname} />;
}
