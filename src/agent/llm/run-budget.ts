import type { LanguageModelUsage, StopCondition, ToolSet } from 'ai';
import { describeUsage, dollars, UsageMeter, type JobBudget } from '../../core/usage.js';

/** Limits of one run of the model-driven agent, repairs included. */
export interface AgentBudgets {
  /** Model calls (each may make several tool calls). */
  maxSteps: number;
  /** Input plus output tokens over every call. */
  maxTokens: number;
  /** Wall time from the start of the run, in milliseconds. */
  maxWallTimeMs: number;
  /** Estimated US dollars over every call; needs the model's price. */
  maxCostUsd?: number;
}

/** The agent's limits with a job's own (`max_turns`, `max_tokens`, `max_cost`) over them. */
export function budgetsFor(base: AgentBudgets, job: JobBudget | undefined): AgentBudgets {
  return {
    ...base,
    ...(job?.maxTurns === undefined ? {} : { maxSteps: job.maxTurns }),
    ...(job?.maxTokens === undefined ? {} : { maxTokens: job.maxTokens }),
    ...(job?.maxCostUsd === undefined ? {} : { maxCostUsd: job.maxCostUsd }),
  };
}

/**
 * Defaults sized for a docs change touching a handful of pages: a typical run reads a few files,
 * searches, edits, and answers in 10-20 steps; the token cap keeps a runaway loop on a large
 * context model under a few dollars; the time cap stays well inside a job's lease renewals.
 */
export const DEFAULT_BUDGETS: AgentBudgets = {
  maxSteps: 40,
  maxTokens: 600_000,
  maxWallTimeMs: 10 * 60_000,
};

export type BudgetName = 'steps' | 'tokens' | 'cost' | 'time';

/**
 * Keeps count of a run's steps, tokens, cost and time across its model calls (the first call and
 * each repair round, and the attempts before a retry, which the meter carries), and gives
 * `generateText` the stop conditions and deadline that enforce them.
 */
export class RunBudget {
  private readonly deadline: number;
  /**
   * The last deadline signal, held here: `AbortSignal.any` keeps its sources only weakly, and a
   * timeout signal nobody else holds can be collected before it fires, leaving a call to hang.
   */
  private deadlineTimer: AbortSignal | undefined;

  constructor(
    readonly limits: AgentBudgets,
    private readonly now: () => number = Date.now,
    readonly meter: UsageMeter = new UsageMeter(undefined),
  ) {
    this.deadline = now() + limits.maxWallTimeMs;
  }

  private get steps(): number {
    return this.meter.run().modelCalls;
  }

  private get tokens(): number {
    const usage = this.meter.run();
    return usage.inputTokens + usage.outputTokens;
  }

  private costReached(): boolean {
    const { maxCostUsd } = this.limits;
    return maxCostUsd !== undefined && (this.meter.run().costUsd ?? 0) >= maxCostUsd;
  }

  /**
   * Stops the tool loop once a budget is used up. The counts include earlier calls of the run
   * (`recordStep` sees every step, and the SDK calls it before it evaluates these).
   */
  stopConditions(): StopCondition<ToolSet>[] {
    return [
      () => this.steps >= this.limits.maxSteps,
      () => this.tokens >= this.limits.maxTokens,
      () => this.costReached(),
      () => this.now() >= this.deadline,
    ];
  }

  /** A signal that aborts a model call in flight when the wall time runs out. */
  deadlineSignal(): AbortSignal {
    this.deadlineTimer = AbortSignal.timeout(Math.max(1, this.deadline - this.now()));
    return this.deadlineTimer;
  }

  /** Model steps finished so far in the run: none means the model never answered. */
  get stepsTaken(): number {
    return this.steps;
  }

  /** Counts one finished step (`onStepFinish`), so a call aborted later still counts its steps. */
  recordStep(step: { usage: LanguageModelUsage; toolCalls: readonly unknown[] }): void {
    const { inputTokens, outputTokens, totalTokens } = step.usage;
    // A provider that reports only a total: counted as input, so the token budget still holds.
    const input = inputTokens ?? (outputTokens === undefined ? (totalTokens ?? 0) : 0);
    this.meter.recordModelCall(
      { inputTokens: input, outputTokens: outputTokens ?? 0 },
      step.toolCalls.length,
    );
  }

  /** The first budget used up, if any. */
  exhausted(): BudgetName | undefined {
    if (this.now() >= this.deadline) return 'time';
    if (this.steps >= this.limits.maxSteps) return 'steps';
    if (this.tokens >= this.limits.maxTokens) return 'tokens';
    if (this.costReached()) return 'cost';
    return undefined;
  }

  /** `its turn limit (max_turns: 3 model calls)`, for a reply. */
  describe(name: BudgetName): string {
    if (name === 'steps') return `its turn limit (max_turns: ${this.limits.maxSteps} model calls)`;
    if (name === 'tokens')
      return `its token limit (max_tokens: ${this.limits.maxTokens.toLocaleString('en-US')} tokens)`;
    if (name === 'cost') return `its cost limit (max_cost: ${dollars(this.limits.maxCostUsd ?? 0)})`;
    return `the time budget (${Math.round(this.limits.maxWallTimeMs / 1000)} seconds)`;
  }

  /**
   * Why a run stopped at a limit failed, with what it spent: a run cut short is not committed,
   * since half a docs change (a page renamed and its links not) is worse than none.
   */
  failure(name: Exclude<BudgetName, 'time'>): string {
    const setting = name === 'steps' ? 'max_turns' : name === 'tokens' ? 'max_tokens' : 'max_cost';
    return `The run stopped at ${this.describe(name)} before the model finished, so nothing was committed. It used ${describeUsage(this.meter.run())}. Raise \`${setting}\` or ask for a smaller change.`;
  }
}
