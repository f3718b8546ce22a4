import type { Resolvers } from '../__generated__/resolvers-types';
import { Mutation } from './mutation';
import { Query } from './query';
import { DateTime, JSONScalar } from './scalars';
import { Recipe, ResolvedRecipe } from './recipe-types';
import { Skill, SkillReferenceDoc, SkillRun, SkillTrigger } from './skill-types';
import { Subscription } from './subscription';
import { processMutations, processQueries, processSubscriptions } from './process-operations';
import { turnQueries, turnSubscriptions } from './turn-operations';
import { ActiveSkill, Process, ProcessEvent, RuntimeGuard, SkillCommandResult, SkillListEntry } from './process-types';
import { Document, Project, User } from './types';

export const resolvers: Resolvers = {
  DateTime, JSON: JSONScalar, User, Project, Document,
  Query: { ...Query, ...processQueries, ...turnQueries },
  Mutation: { ...Mutation, ...processMutations },
  Subscription: { ...Subscription, ...processSubscriptions, ...turnSubscriptions },
  Process, ActiveSkill, RuntimeGuard, SkillListEntry, SkillCommandResult, ProcessEvent,
  Skill, SkillTrigger, SkillReferenceDoc, SkillRun, Recipe, ResolvedRecipe,
};
