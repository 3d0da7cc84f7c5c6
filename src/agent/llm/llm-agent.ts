import {
  APICallError,
  generateText,
  RetryError,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import type { CheckProblem } from '../../checks/index.js';
import { DocwrightError, UnrecoverableError } from '../../core/errors.js';
import { redactSecrets } from '../../core/redact.js';
import { createDocsTools } from '../tools/docs-tools.js';
import { SiteNavigationTool } from '../tools/site-navigation.js';
import { DocsSearch } from '../tools/docs-search.js';
import { DocsWorkspace } from '../tools/docs-workspace.js';
import { PathGuard } from '../tools/path-guard.js';
import type { Agent, AgentResult, AgentRunInput } from '../types.js';
import { initialMessages, repairMessage, systemPrompt } from './prompt.js';
import { composeReply } from './reply.js';
import { briefSyncRequests } from './sync-brief.js';
import { budgetsFor, DEFAULT_BUDGETS, RunBudget, type AgentBudgets, type BudgetName } from './run-budget.js';

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
      budget: new RunBudget(
        budgetsFor({ ...DEFAULT_BUDGETS, ...this.options.budgets }, input.budget),
        this.options.now,
        input.usage,
      ),
      input,
    });
    return session.turn(false);
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

  /**
   * Runs the tool loop until the model answers or a limit stops it. A turn a limit cuts short
   * (turns, tokens, cost) fails the run: its edits are half made and nothing is committed. A
   * repair the limits leave no room for is not started: the edit stands, its problems listed.
   */
  async turn(repairing: boolean): Promise<AgentResult> {
    const { budget, input, workspace } = this.parts;
    let stopped: BudgetName | undefined = budget.exhausted();
    if (stopped !== undefined && stopped !== 'time' && !repairing)
      throw new UnrecoverableError(budget.failure(stopped));
    if (stopped === undefined) {
      stopped = await this.generate();
      if (stopped !== undefined && stopped !== 'time') throw new UnrecoverableError(budget.failure(stopped));
    }
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
    return this.turn(true);
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
 * A provider's failure, in words that say what to do. The AI SDK has already retried what may
 * pass (waiting out a `Retry-After` of up to a minute, within the run's deadline); what is left:
 * - a refused key or an unknown model fails the job at once with the provider's message;
 * - a conversation grown past the model's context window fails in words (nothing is committed);
 * - a rate limit that outlasted the SDK's retries is retryable, carrying its `Retry-After`, so
 *   the worker tries the run again no sooner than the provider asked;
 * - anything else is thrown as it is, for the worker's rule of what is retried.
 */
function providerError(error: unknown): unknown {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(last)) return error;
  const status = last.statusCode;
  const said = redactSecrets(last.message);
  if (CONTEXT_OVERFLOW.test(last.message) || CONTEXT_OVERFLOW.test(last.responseBody ?? ''))
    return new UnrecoverableError(
      `The request and the files the model read grew past its context window, so nothing was committed (the provider said: ${said}). Ask for a smaller change, or use a model with a larger context window.`,
    );
  if (status === 401 || status === 403)
    return new UnrecoverableError(
      `The model provider refused the credentials (HTTP ${status}): ${said}. Check the key or credentials in the provider's environment variables.`,
    );
  if (status === 404)
    return new UnrecoverableError(
      `The model provider does not know the model or its endpoint (HTTP 404): ${said}. Check the model's name and DOCWRIGHT_MODEL_BASE_URL.`,
    );
  if (status === 429) {
    const retryAfter = last.responseHeaders?.['retry-after'];
    return new DocwrightError(
      'rate_limited',
      `The model provider's rate limit held after retries (HTTP 429): ${said}`,
      { retryable: true, cause: last, ...(retryAfter ? { headers: { 'Retry-After': retryAfter } } : {}) },
    );
  }
  if (last.isRetryable) return error;
  return new UnrecoverableError(
    `The model provider refused the request${status === undefined ? '' : ` (HTTP ${status})`}: ${said}`,
  );
}

/** How providers word a prompt longer than the model takes (OpenAI, Anthropic, Gemini, Bedrock, Ollama). */
const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|maximum context length|context window|prompt is too long|input is too long|too many (input )?tokens|exceeds the (maximum|model's) (number of )?tokens/i;
