/**
 * The Vance dashboard: react-admin over Vance's own GraphQL operations. One folder per resource:
 * layers (documents), skills, recipes, processes, settings, tools. Hash routing, so the API only has to
 * serve index.html and its assets under /admin. No `requireAuth`: the layout's RequireSession gates
 * every page (react-admin's gate looped on the login redirect, issue 17).
 */
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { dataProvider } from './api/dataProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './layout/LoginPage';
import { RouteNotification } from './layout/RouteNotification';
import { theme } from './layout/theme';
// Pages are code-split (pages.tsx): each resource's chunk loads on first use.
import { ActivationLog, DocumentEdit, LayerList, ProcessList, ProcessShow, RecipeEdit, RecipeList, SettingsPage, SkillList, SkillShow, ToolList, TriggerBench } from './pages';

export const App = () => (
  <Admin title="Vance" dataProvider={dataProvider} authProvider={authProvider} loginPage={LoginPage} layout={Layout} theme={theme} notification={RouteNotification} disableTelemetry>
    <Resource name="documents" options={{ label: 'Layers' }} list={LayerList} edit={DocumentEdit} />
    <Resource name="skills" list={SkillList} show={SkillShow} recordRepresentation="name" />
    <Resource name="recipes" list={RecipeList} edit={RecipeEdit} recordRepresentation="name" />
    <Resource name="processes" list={<ProcessList />} show={ProcessShow} recordRepresentation="name">
      <Route path=":id/log" element={<ActivationLog />} />
    </Resource>
    <CustomRoutes>
      <Route path="/trigger-bench" element={<TriggerBench />} />
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/tools" element={<ToolList />} />
    </CustomRoutes>
  </Admin>
);
