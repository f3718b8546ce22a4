/**
 * What both transports check before an operation runs (issue 13, DESIGN §6 "no request costs other
 * tenants time"), in this order:
 *  1. the operation limits (`operation-limits.ts`): on the source text, then on the parsed
 *     document — before GraphQL's own validation and before anyone is authenticated;
 *  2. GraphQL's validation;
 *  3. `admit`: the introspection policy and the mutation/turn rate budgets (costly queries such as
 *     renderTemplate count as mutations), which need the caller.
 * HTTP runs the steps as Apollo hooks (`apollo-guard.ts`), graphql-ws in onSubscribe (`ws-server.ts`);
 * the subscription caps are WebSocket-only (`subscription-caps.ts`).
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { BudgetsConfig, IntrospectionPolicy, OperationLimitsConfig } from '../config';
import type { GraphQLContext } from './context';
import { checkIntrospection } from './introspection-policy';
import { OperationLimits } from './operation-limits';
import { CHARGED_QUERIES, PrincipalBudgets, TURN_STARTING_MUTATIONS } from './principal-budgets';

export interface RequestGuardOptions {
  readonly operationLimits: OperationLimitsConfig;
  readonly introspection: IntrospectionPolicy;
  readonly budgets: BudgetsConfig;
}

export class RequestGuard {
  readonly limits: OperationLimits;
  private readonly budgets: PrincipalBudgets;
  private readonly introspection: IntrospectionPolicy;

  constructor(options: RequestGuardOptions) {
    this.limits = new OperationLimits(options.operationLimits);
    this.budgets = new PrincipalBudgets(options.budgets);
    this.introspection = options.introspection;
  }

  /** Step 3, on a valid document: throws a DomainError (UNAUTHENTICATED, FORBIDDEN, RATE_LIMITED). */
  async admit(document: DocumentNode, operation: OperationDefinitionNode, context: GraphQLContext): Promise<void> {
    await checkIntrospection(this.introspection, document, context);
    if (operation.operation === 'subscription' || context.tokenKey === null) return;
    const all = [...rootFields(document, operation).values()];
    const fields = operation.operation === 'mutation' ? all : all.filter((name) => CHARGED_QUERIES.has(name));
    if (fields.length === 0) return;
    // Without a valid token the resolvers answer UNAUTHENTICATED; there is no budget to spend.
    const principal = await context.principal().catch(() => null);
    if (!principal) return;
    await this.budgets.charge({
      tokenKey: context.tokenKey,
      tenantId: principal.tenant.id,
      mutations: fields.length,
      turns: fields.filter((name) => TURN_STARTING_MUTATIONS.has(name)).length,
    });
  }
}

/**
 * The root fields an operation executes, by response key (GraphQL runs a key once however often it
 * is selected), through fragments; `__typename` is left out.
 */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): Map<string, string> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const fields = new Map<string, string>();
  const spread = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (!s.name.value.startsWith('__')) fields.set(s.alias?.value ?? s.name.value, s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else {
        const fragment = fragments.get(s.name.value);
        if (fragment && !spread.has(s.name.value)) {
          spread.add(s.name.value);
          walk(fragment.selectionSet);
        }
      }
    }
  };
  walk(operation.selectionSet);
  return fields;
}
