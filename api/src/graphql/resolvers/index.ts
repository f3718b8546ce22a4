import type { Resolvers } from '../__generated__/resolvers-types';
import { Mutation } from './mutation';
import { Query } from './query';
import { DateTime, JSONScalar } from './scalars';
import { Recipe, ResolvedRecipe } from './recipe-types';
import { Skill, SkillReferenceDoc, SkillRun, SkillTrigger } from './skill-types';
import { Subscription } from './subscription';
import { processMutations, processQueries, processSubscriptions } from './process-operations';
import { turnMutations, turnQueries, turnSubscriptions } from './turn-operations';
import { clientToolMutations, clientToolQueries, clientToolSubscriptions } from './client-tool-operations';
import { ActiveSkill, Process, ProcessEvent, RuntimeGuard, SkillCommandResult, SkillListEntry } from './process-types';
import { Document, Project, User } from './types';
import { PoolTool } from './tool-types';

export const resolvers: Resolvers = {
  DateTime, JSON: JSONScalar, User, Project, Document,
  Query: { ...Query, ...processQueries, ...turnQueries, ...clientToolQueries },
  Mutation: { ...Mutation, ...processMutations, ...clientToolMutations, ...turnMutations },
  Subscription: { ...Subscription, ...processSubscriptions, ...turnSubscriptions, ...clientToolSubscriptions },
  Process, ActiveSkill, RuntimeGuard, SkillListEntry, SkillCommandResult, ProcessEvent,
  Skill, SkillTrigger, SkillReferenceDoc, SkillRun, Recipe, ResolvedRecipe, PoolTool,
};
