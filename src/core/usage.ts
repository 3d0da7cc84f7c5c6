import { DocwrightError } from './errors.js';

/**
 * What a run cost: the model's tokens and calls, the tools it called, the wall time, and the cost
 * in US dollars when the operator gave a price for the model (null when nobody did: an estimate
 * from a price table shipped with docwright would go stale without anyone noticing).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
  wallMs: number;
  costUsd: number | null;
}

export const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  modelCalls: 0,
  toolCalls: 0,
  wallMs: 0,
  costUsd: null,
};

/** Two usages together; a cost is known when either side knows one. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    modelCalls: a.modelCalls + b.modelCalls,
    toolCalls: a.toolCalls + b.toolCalls,
    wallMs: a.wallMs + b.wallMs,
    costUsd: a.costUsd === null && b.costUsd === null ? null : roundCost((a.costUsd ?? 0) + (b.costUsd ?? 0)),
  };
}

/** A cost to a hundredth of a cent: enough for a bill, and floating-point noise does not show. */
function roundCost(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** US dollars per million tokens, as providers publish their prices. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by model string (`openai:gpt-5-mini`), as the operator sets them. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Reads the price table: JSON `{ "<provider>:<model>": { "input": 0.25, "output": 2 } }`, dollars
 * per million tokens. A malformed table is an error that names what is wrong, never an empty table:
 * a cap on cost must not silently stop holding.
 */
export function parsePriceTable(text: string | undefined, source = 'DOCWRIGHT_MODEL_PRICES'): PriceTable {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DocwrightError(
      'invalid_request',
      `${source} is not valid JSON; write it as {"openai:gpt-5-mini": {"input": 0.25, "output": 2}} (US dollars per million tokens)`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DocwrightError('invalid_request', `${source} must be a JSON object of model prices`);
  const table: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(value)) {
    const { input, output } = (price ?? {}) as Partial<Record<string, unknown>>;
    if (!isPrice(input) || !isPrice(output))
      throw new DocwrightError(
        'invalid_request',
        `${source}: the price of ${model} needs "input" and "output", each a number of US dollars per million tokens (0 or more)`,
      );
    table[model] = { input, output };
  }
  return table;
}

function isPrice(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The limits a job runs within, each optional; unset means the agent's own default. */
export interface JobBudget {
  /** Model calls in one run, repairs included (each call may make several tool calls). */
  maxTurns?: number;
  /** Input plus output tokens in one run. */
  maxTokens?: number;
  /** Estimated US dollars in one run; needs a price for the job's model. */
  maxCostUsd?: number;
}

/** `budget` as stored and sent: the settings file's and the API's snake_case names. */
export interface BudgetFields {
  max_turns?: number | undefined;
  max_tokens?: number | undefined;
  max_cost?: number | undefined;
}

export function budgetFromFields(fields: BudgetFields | null | undefined): JobBudget {
  const budget: JobBudget = {};
  if (fields?.max_turns !== undefined) budget.maxTurns = fields.max_turns;
  if (fields?.max_tokens !== undefined) budget.maxTokens = fields.max_tokens;
  if (fields?.max_cost !== undefined) budget.maxCostUsd = fields.max_cost;
  return budget;
}

function budgetFields(budget: JobBudget): BudgetFields {
  const fields: BudgetFields = {};
  if (budget.maxTurns !== undefined) fields.max_turns = budget.maxTurns;
  if (budget.maxTokens !== undefined) fields.max_tokens = budget.maxTokens;
  if (budget.maxCostUsd !== undefined) fields.max_cost = budget.maxCostUsd;
  return fields;
}

/** A budget as a table keeps it: JSON of the settings' names, null when it sets no limit. */
export function budgetText(budget: JobBudget | undefined): string | null {
  return budget && Object.keys(budget).length > 0 ? JSON.stringify(budgetFields(budget)) : null;
}

/** A budget kept by `budgetText`; unreadable text sets no limit rather than failing a run. */
export function budgetOfText(text: string | null | undefined): JobBudget | undefined {
  if (!text) return undefined;
  try {
    return budgetFromFields(JSON.parse(text) as BudgetFields);
  } catch {
    return undefined;
  }
}

/**
 * The limits as a person types them (the Action's inputs, the CLI's flags), each optional: a value
 * that is not a positive number (a whole one for turns and tokens) is a problem naming it.
 */
export function parseBudgetLimits(
  typed: { turns: string | undefined; tokens: string | undefined; cost: string | undefined },
  nameOf: (limit: 'max-turns' | 'max-tokens' | 'max-cost') => string,
): { fields: BudgetFields; problems: string[] } {
  const problems: string[] = [];
  const limit = (
    name: 'max-turns' | 'max-tokens' | 'max-cost',
    value: string | undefined,
    whole: boolean,
  ) => {
    if (value === undefined || value === '') return undefined;
    const parsed = Number(value);
    if (Number.isFinite(parsed) && parsed > 0 && (!whole || Number.isInteger(parsed))) return parsed;
    problems.push(
      `${nameOf(name)} must be a ${whole ? 'whole number' : 'number'} greater than 0, not "${value}"`,
    );
    return undefined;
  };
  const fields: BudgetFields = {};
  const turns = limit('max-turns', typed.turns, true);
  const tokens = limit('max-tokens', typed.tokens, true);
  const cost = limit('max-cost', typed.cost, false);
  if (turns !== undefined) fields.max_turns = turns;
  if (tokens !== undefined) fields.max_tokens = tokens;
  if (cost !== undefined) fields.max_cost = cost;
  return { fields, problems };
}

/** The first budget that names a limit wins, field by field (the job's, then the project's, then the server's). */
export function mergeBudgets(...budgets: (JobBudget | null | undefined)[]): JobBudget {
  const merged: JobBudget = {};
  for (const budget of [...budgets].reverse()) Object.assign(merged, budget ?? {});
  return merged;
}

/**
 * Counts one run's usage as it happens, over every attempt of the run: `earlier` is what attempts
 * before this one spent (kept with the job when a transient error put it back), so a retried run
 * does not spend its budget a second time.
 */
export class UsageMeter {
  private attempt: Usage = { ...NO_USAGE };
  private readonly started: number;

  constructor(
    private readonly price: ModelPrice | undefined,
    private readonly earlier: Usage = NO_USAGE,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Whether a cost can be estimated (a cap on cost needs one). */
  get priced(): boolean {
    return this.price !== undefined;
  }

  /** Counts one finished model call and the tool calls it made. */
  recordModelCall(tokens: { inputTokens?: number; outputTokens?: number }, toolCalls: number): void {
    const input = tokens.inputTokens ?? 0;
    const output = tokens.outputTokens ?? 0;
    this.attempt = addUsage(this.attempt, {
      inputTokens: input,
      outputTokens: output,
      modelCalls: 1,
      toolCalls,
      wallMs: 0,
      costUsd: this.price ? (input * this.price.input + output * this.price.output) / 1_000_000 : null,
    });
  }

  /** This attempt alone, wall time to now: what the job's total grows by. */
  thisAttempt(): Usage {
    return {
      ...this.attempt,
      wallMs: Math.max(0, this.now() - this.started),
      costUsd: this.price ? (this.attempt.costUsd ?? 0) : null,
    };
  }

  /** The whole run so far, earlier attempts included: what its budget is checked against. */
  run(): Usage {
    return addUsage(this.earlier, this.thisAttempt());
  }
}

/** `1,234 tokens (1,000 in, 234 out) in 3 model calls and 5 tool calls, 12 s, about $0.0123`. */
export function describeUsage(usage: Usage): string {
  const tokens = usage.inputTokens + usage.outputTokens;
  const parts = [
    `${count(tokens)} tokens (${count(usage.inputTokens)} in, ${count(usage.outputTokens)} out)`,
    `${plural(usage.modelCalls, 'model call')} and ${plural(usage.toolCalls, 'tool call')}`,
    seconds(usage.wallMs),
  ];
  if (usage.costUsd !== null) parts.push(`about ${dollars(usage.costUsd)}`);
  return `${parts[0]} in ${parts.slice(1).join(', ')}`;
}

/** `$1.20`, `$0.60`, and below ten cents to a hundredth of a cent (`$0.0120`), where cents say too little. */
export function dollars(value: number): string {
  return `$${value < 0.1 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A stored usage (JSON text) with `usage` added, as the table keeps it. */
export function addedUsageText(stored: string | null, usage: Usage): string {
  return JSON.stringify(addUsage(parseUsage(stored) ?? NO_USAGE, usage));
}

/** Parses a stored usage (JSON text); anything unreadable is no usage rather than a failed read. */
export function parseUsage(text: string | null | undefined): Usage | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Usage>;
    return {
      inputTokens: Number(value.inputTokens ?? 0),
      outputTokens: Number(value.outputTokens ?? 0),
      modelCalls: Number(value.modelCalls ?? 0),
      toolCalls: Number(value.toolCalls ?? 0),
      wallMs: Number(value.wallMs ?? 0),
      costUsd: typeof value.costUsd === 'number' ? value.costUsd : null,
    };
  } catch {
    return null;
  }
}
