import type { Resolvers } from '../__generated__/resolvers-types';
import { Mutation } from './mutation';
import { Query } from './query';
import { DateTime, JSONScalar } from './scalars';
import { Recipe, ResolvedRecipe } from './recipe-types';
import { Skill, SkillReferenceDoc, SkillRun, SkillTrigger } from './skill-types';
import { Subscription } from './subscription';
import { Document, Project, User } from './types';

export const resolvers: Resolvers = {
  DateTime, JSON: JSONScalar, Query, Mutation, Subscription, User, Project, Document,
  Skill, SkillTrigger, SkillReferenceDoc, SkillRun, Recipe, ResolvedRecipe,
};
