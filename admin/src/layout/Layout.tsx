import type { ReactNode } from 'react';
import { AppBar, Layout as RaLayout, Menu, TitlePortal } from 'react-admin';
import { ProjectSwitcher } from './ProjectSwitcher';
import { RequireSession } from './RequireSession';

const VanceAppBar = () => (
  <AppBar>
    <TitlePortal />
    <span style={{ flex: 1 }} />
    <ProjectSwitcher />
  </AppBar>
);

const VanceMenu = () => (
  <Menu>
    <Menu.ResourceItems />
    <Menu.Item to="/tools" primaryText="Tools" />
    <Menu.Item to="/trigger-bench" primaryText="Trigger bench" />
    <Menu.Item to="/settings" primaryText="Settings" />
  </Menu>
);

/** Every page but the login page lives in this layout, so the session gate sits here. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RequireSession>
    <RaLayout appBar={VanceAppBar} menu={VanceMenu}>{children}</RaLayout>
  </RequireSession>
);
