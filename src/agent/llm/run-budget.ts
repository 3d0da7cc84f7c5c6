import type { LanguageModelUsage, StopCondition, ToolSet } from 'ai';

/** Limits of one run of the model-driven agent, repairs included. */
export interface AgentBudgets {
  /** Model calls (each may make several tool calls). */
  maxSteps: number;
  /** Input plus output tokens over every call. */
  maxTokens: number;
  /** Wall time from the start of the run, in milliseconds. */
  maxWallTimeMs: number;
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

export type BudgetName = 'steps' | 'tokens' | 'time';

/**
 * Keeps count of a run's steps, tokens and time across its model calls (the first call and each
 * repair round), and gives `generateText` the stop conditions and deadline that enforce them.
 */
export class RunBudget {
  private steps = 0;
  private tokens = 0;
  private readonly deadline: number;
  /**
   * The last deadline signal, held here: `AbortSignal.any` keeps its sources only weakly, and a
   * timeout signal nobody else holds can be collected before it fires, leaving a call to hang.
   */
  private deadlineTimer: AbortSignal | undefined;

  constructor(
    readonly limits: AgentBudgets,
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + limits.maxWallTimeMs;
  }

  /**
   * Stops the tool loop once a budget is used up. The counts include earlier calls of the run
   * (`recordStep` sees every step, and the SDK calls it before it evaluates these).
   */
  stopConditions(): StopCondition<ToolSet>[] {
    return [
      () => this.steps >= this.limits.maxSteps,
      () => this.tokens >= this.limits.maxTokens,
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
  recordStep(step: { usage: LanguageModelUsage }): void {
    this.steps += 1;
    const usage = step.usage;
    this.tokens += usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  }

  /** The first budget used up, if any. */
  exhausted(): BudgetName | undefined {
    if (this.now() >= this.deadline) return 'time';
    if (this.steps >= this.limits.maxSteps) return 'steps';
    if (this.tokens >= this.limits.maxTokens) return 'tokens';
    return undefined;
  }

  /** `the step budget (40 model steps)`, for a reply. */
  describe(name: BudgetName): string {
    if (name === 'steps') return `the step budget (${this.limits.maxSteps} model steps)`;
    if (name === 'tokens') return `the token budget (${this.limits.maxTokens} tokens)`;
    return `the time budget (${Math.round(this.limits.maxWallTimeMs / 1000)} seconds)`;
  }
}
