import { APICallError, generateText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { CheckProblem } from '../../checks/index.js';
import { UnrecoverableError } from '../../core/errors.js';
import { redactSecrets } from '../sanitize.js';
import { createDocsTools } from '../tools/docs-tools.js';
import { SiteNavigationTool } from '../tools/site-navigation.js';
import { DocsSearch } from '../tools/docs-search.js';
import { DocsWorkspace } from '../tools/docs-workspace.js';
import { PathGuard } from '../tools/path-guard.js';
import type { Agent, AgentResult, AgentRunInput } from '../types.js';
import { initialMessages, repairMessage, systemPrompt } from './prompt.js';
import { composeReply } from './reply.js';
import { briefSyncRequests } from './sync-brief.js';
import { DEFAULT_BUDGETS, RunBudget, type AgentBudgets, type BudgetName } from './run-budget.js';

export interface LlmAgentOptions {
  /** The AI SDK model (see `languageModel` in src/models/models.ts). */
  model: LanguageModel;
  /** Reported as the job's `model`, e.g. `openai:gpt-4o-mini`. */
  name: string;
  budgets?: Partial<AgentBudgets>;
  /** The clock of the time budget (tests). */
  now?: () => number;
}

/**
 * The model-driven agent: a `generateText` tool loop over the job's overlay, behind the
 * path guard, within step, token and time budgets. Its final message is the reply; its result can
 * `repair` what the docs checks find, continuing the same conversation.
 */
export class LlmAgent implements Agent {
  readonly model: string;

  constructor(private readonly options: LlmAgentOptions) {
    this.model = options.name;
  }

  async run(request: AgentRunInput): Promise<AgentResult> {
    const brief = await briefSyncRequests(request);
    if ('reply' in brief) return { reply: brief.reply };
    const input = { ...request, instructions: brief.instructions };
    const guard = new PathGuard(input.policy);
    const workspace = new DocsWorkspace(input.files, guard);
    const session = new AgentSession({
      model: this.options.model,
      system: await systemPrompt(input.files, guard.root),
      messages: initialMessages(input),
      workspace,
      search: new DocsSearch(input.files, guard),
      guard,
      budget: new RunBudget({ ...DEFAULT_BUDGETS, ...this.options.budgets }, this.options.now),
      input,
    });
    return session.turn();
  }
}

interface SessionParts {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  workspace: DocsWorkspace;
  search: DocsSearch;
  guard: PathGuard;
  budget: RunBudget;
  input: AgentRunInput;
}

/** One run's conversation: the first turn, then one turn per repair round. */
class AgentSession {
  private readonly tools: ToolSet;
  /** The model's last report, kept when a repair turn ends without a new one. */
  private report = '';

  constructor(private readonly parts: SessionParts) {
    this.tools = createDocsTools(
      parts.workspace,
      parts.search,
      new SiteNavigationTool(parts.input.files, parts.guard, parts.workspace.log),
    );
  }

  /** Runs the tool loop until the model answers or a budget stops it. */
  async turn(): Promise<AgentResult> {
    const { budget, input, workspace } = this.parts;
    let stopped: BudgetName | undefined = budget.exhausted();
    if (stopped === undefined) stopped = await this.generate();
    const result: AgentResult = composeReply({
      text: this.report,
      log: workspace.log,
      ...(stopped === undefined ? {} : { stoppedBy: budget.describe(stopped) }),
    });
    input.logger.info({ stopped, changed: workspace.changedFiles().length }, 'model agent turn finished');
    // A run stopped by a budget ends there: its reply says what was done, no repair follows.
    if (stopped === undefined) result.repair = (problems) => this.repair(problems);
    return result;
  }

  private repair(problems: CheckProblem[]): Promise<AgentResult> {
    const relative = problems.map((problem) => ({
      ...problem,
      file: this.parts.guard.docsPath(problem.file) ?? problem.file,
    }));
    this.parts.messages.push(repairMessage(relative));
    return this.turn();
  }

  /** One `generateText` call; returns the budget that stopped it, if one did. */
  private async generate(): Promise<BudgetName | undefined> {
    const { budget, input, messages } = this.parts;
    try {
      const result = await generateText({
        model: this.parts.model,
        system: this.parts.system,
        messages,
        tools: this.tools,
        stopWhen: [...budget.stopConditions(), () => this.parts.workspace.failure !== undefined],
        abortSignal: AbortSignal.any([input.signal, budget.deadlineSignal()]),
        onStepFinish: (step) => budget.recordStep(step),
      });
      // The output budget was spent inside a tool: the run fails with it, whatever the model says.
      if (this.parts.workspace.failure) throw this.parts.workspace.failure;
      messages.push(...result.response.messages);
      if (result.text.trim() !== '') this.report = result.text;
      // The loop ended while the model still wanted its tools: a budget stopped it.
      return result.finishReason === 'tool-calls' ? (budget.exhausted() ?? 'steps') : undefined;
    } catch (error) {
      if (error === this.parts.workspace.failure) throw error;
      // A job interrupted from outside (lease lost, shutdown) is the worker's business.
      if (input.signal.aborted || budget.exhausted() !== 'time') throw providerError(error);
      // Out of time before the model said anything: there is no partial work to report, the job fails.
      if (budget.stepsTaken === 0)
        throw new UnrecoverableError(
          `The model did not answer within ${budget.describe('time')}, so nothing was changed. Check that the model is reachable, then send a follow-up message.`,
        );
      return 'time';
    } finally {
      this.parts.search.close();
    }
  }
}

/**
 * A provider's refusal that retrying cannot fix (a bad key, an unknown model: 4xx other than 408,
 * 409 and 429) fails the job in words; anything else is thrown as it is and retried by the worker.
 */
function providerError(error: unknown): unknown {
  if (!APICallError.isInstance(error) || error.isRetryable) return error;
  const status = error.statusCode === undefined ? '' : ` (HTTP ${error.statusCode})`;
  return new UnrecoverableError(
    redactSecrets(`The model provider refused the request${status}: ${error.message}`),
  );
}
