/**
 * The Vance dashboard: react-admin over Vance's own GraphQL operations. One folder per resource:
 * layers (documents), skills, recipes, processes, settings. Hash routing, so the API only has to
 * serve index.html and its assets under /admin. No `requireAuth`: the layout's RequireSession gates
 * every page (react-admin's gate looped on the login redirect, issue 17).
 */
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { dataProvider } from './api/dataProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './layout/LoginPage';
import { DocumentEdit } from './layers/DocumentEdit';
import { LayerList } from './layers/LayerList';
import { ProcessList } from './processes/ProcessList';
import { ProcessShow } from './processes/ProcessShow';
import { RecipeEdit } from './recipes/RecipeEdit';
import { RecipeList } from './recipes/RecipeList';
import { SettingsPage } from './settings/SettingsPage';
import { SkillList } from './skills/SkillList';
import { SkillShow } from './skills/SkillShow';
import { TriggerBench } from './skills/TriggerBench';

export const App = () => (
  <Admin title="Vance" dataProvider={dataProvider} authProvider={authProvider} loginPage={LoginPage} layout={Layout} disableTelemetry>
    <Resource name="documents" options={{ label: 'Layers' }} list={LayerList} edit={DocumentEdit} />
    <Resource name="skills" list={SkillList} show={SkillShow} recordRepresentation="name" />
    <Resource name="recipes" list={RecipeList} edit={RecipeEdit} recordRepresentation="name" />
    <Resource name="processes" list={<ProcessList />} show={ProcessShow} recordRepresentation="name" />
    <CustomRoutes>
      <Route path="/trigger-bench" element={<TriggerBench />} />
      <Route path="/settings" element={<SettingsPage />} />
    </CustomRoutes>
  </Admin>
);
