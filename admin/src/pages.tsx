/**
 * Every page loads its own chunk on first use (issue 17 point 7): the first load fetches react-admin,
 * the layout and the login form, not the editor (CodeMirror), the process view or the settings.
 * Each page waits for its chunk inside its own Suspense, so the app bar and menu stay up meanwhile.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';

function page(load: () => Promise<ComponentType>): ComponentType {
  const Lazy = lazy(async () => ({ default: await load() }));
  const Page = () => <Suspense fallback={<Loading />}><Lazy /></Suspense>;
  return Page;
}

export const LayerList = page(async () => (await import('./layers/LayerList')).LayerList);
export const DocumentEdit = page(async () => (await import('./layers/DocumentEdit')).DocumentEdit);
export const SkillList = page(async () => (await import('./skills/SkillList')).SkillList);
export const SkillShow = page(async () => (await import('./skills/SkillShow')).SkillShow);
export const TriggerBench = page(async () => (await import('./skills/TriggerBench')).TriggerBench);
export const RecipeList = page(async () => (await import('./recipes/RecipeList')).RecipeList);
export const RecipeEdit = page(async () => (await import('./recipes/RecipeEdit')).RecipeEdit);
export const ProcessList = page(async () => (await import('./processes/ProcessList')).ProcessList);
export const ProcessShow = page(async () => (await import('./processes/ProcessShow')).ProcessShow);
export const ActivationLog = page(async () => (await import('./processes/ActivationLog')).ActivationLog);
export const SettingsPage = page(async () => (await import('./settings/SettingsPage')).SettingsPage);
export const ToolList = page(async () => (await import('./tools/ToolList')).ToolList);
