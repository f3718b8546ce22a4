import type { Resolvers } from '../__generated__/resolvers-types';
import { Mutation } from './mutation';
import { Query } from './query';
import { DateTime } from './scalars';
import { Subscription } from './subscription';
import { Document, Project, User } from './types';

export const resolvers: Resolvers = { DateTime, Query, Mutation, Subscription, User, Project, Document };
