/**
 * Rate budgets per principal (issue 13, DESIGN §6 "rate limits per token and tenant"): mutations,
 * and the mutations that start turns (the expensive ones: a model call each), per minute, per token
 * and per tenant. A tenant budget bounds what many tokens of one tenant can do together. Open
 * subscriptions are counted by `subscription-caps.ts`.
 *
 * Store: rate-limiter-flexible's RateLimiterMemory, one per instance, chosen over its PostgreSQL
 * store: a check then costs no database round trip on every mutation and needs no table. The price:
 * N instances sharing one PostgreSQL allow up to N× the configured rate (the README says so). These
 * budgets stop one caller from starving the others; they are not a bill.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { BudgetsConfig } from '../config';
import { LimitExceededError } from '../domain/errors';

const WINDOW_SECONDS = 60;

/** The mutations that schedule a turn (directly, or by spawning a worker whose first message runs). */
export const TURN_STARTING_MUTATIONS: ReadonlySet<string> = new Set(['sendMessage', 'spawnProcess', 'regenerateTurn', 'skillCommand', 'activateSkill']);

/**
 * Queries that cost a render or a validation each (bounded by their caps, but on this instance's
 * time): charged to the mutation budgets like a mutation, so that one caller cannot repeat them
 * without end.
 */
export const CHARGED_QUERIES: ReadonlySet<string> = new Set(['renderTemplate']);

type RateLimit = 'mutationsPerToken' | 'mutationsPerTenant' | 'turnsPerToken' | 'turnsPerTenant';

const DESCRIPTION: Record<RateLimit, string> = {
  mutationsPerToken: 'mutations per minute per token',
  mutationsPerTenant: 'mutations per minute per tenant',
  turnsPerToken: 'turn-starting mutations per minute per token',
  turnsPerTenant: 'turn-starting mutations per minute per tenant',
};

export interface Charge {
  readonly tokenKey: string;
  readonly tenantId: string;
  /** Root mutation fields of the operation (aliases count one each). */
  readonly mutations: number;
  /** Of those, the turn-starting ones. */
  readonly turns: number;
}

export class PrincipalBudgets {
  private readonly limiters: Readonly<Record<RateLimit, RateLimiterMemory>>;

  constructor(private readonly config: BudgetsConfig) {
    const limiter = (points: number) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS });
    this.limiters = {
      mutationsPerToken: limiter(config.mutationsPerToken),
      mutationsPerTenant: limiter(config.mutationsPerTenant),
      turnsPerToken: limiter(config.turnsPerToken),
      turnsPerTenant: limiter(config.turnsPerTenant),
    };
  }

  /**
   * Spends the operation's points or throws LimitExceededError naming the first budget that is
   * spent. The token's budgets come first, so a token over its own budget stops spending its
   * tenant's.
   */
  async charge({ tokenKey, tenantId, mutations, turns }: Charge): Promise<void> {
    if (mutations === 0) return;
    await this.consume('mutationsPerToken', tokenKey, mutations);
    if (turns > 0) await this.consume('turnsPerToken', tokenKey, turns);
    await this.consume('mutationsPerTenant', tenantId, mutations);
    if (turns > 0) await this.consume('turnsPerTenant', tenantId, turns);
  }

  private async consume(limit: RateLimit, key: string, points: number): Promise<void> {
    try {
      await this.limiters[limit].consume(key, points);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      const max = this.config[limit];
      const retryAfterMs = Math.max(1, Math.ceil(res.msBeforeNext));
      throw new LimitExceededError('RATE_LIMITED', limit, max, retryAfterMs,
        `Rate limit ${limit} reached: at most ${max} ${DESCRIPTION[limit]}; retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    }
  }
}
