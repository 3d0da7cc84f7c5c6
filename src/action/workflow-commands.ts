import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';
import { badRequest, DocwrightError } from '../core/errors.js';

/**
 * A step's side of the runner, as GitHub documents it ("Workflow commands for GitHub Actions"):
 * inputs from `INPUT_<NAME>` variables; log lines, annotations and masks as `::command::` lines on
 * stdout; outputs and the job summary appended to the files `GITHUB_OUTPUT` and
 * `GITHUB_STEP_SUMMARY` name, in the formats `@actions/core` writes. That package
 * also loads an HTTP client (undici) at start for OIDC tokens the Action never asks for: about
 * 900 KB of the bundle and a third of the time to the first request.
 */
export class WorkflowCommands {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly stdout: (text: string) => void = (text) => void process.stdout.write(text),
  ) {}

  /** An input as the runner passes it: `INPUT_` and the name in capitals, spaces as `_`; trimmed. */
  getInput(name: string): string {
    return (this.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
  }

  info(message: string): void {
    this.stdout(`${message}${EOL}`);
  }

  /** Shown only when the run has step debug logging on. */
  debug(message: string): void {
    this.command('debug', message);
  }

  notice(message: string): void {
    this.command('notice', message);
  }

  /** With `properties`, the warning is shown on the file (and line) it names, in the pull request's diff too. */
  warning(message: string, properties?: AnnotationProperties): void {
    this.command('warning', message, properties);
  }

  error(message: string): void {
    this.command('error', message);
  }

  /** The runner replaces the value with `***` in every later line of the log. */
  setSecret(secret: string): void {
    this.command('add-mask', secret);
  }

  /** The step fails, with the message as its error annotation. */
  setFailed(message: string): void {
    process.exitCode = 1;
    this.error(message);
  }

  /**
   * `name<<delimiter`, the value, `delimiter`: a value may span lines. The delimiter is random, so
   * no value can end the block early; one that holds it anyway is refused, as the runner would
   * misread it.
   */
  setOutput(name: string, value: string): void {
    const file = this.env['GITHUB_OUTPUT'];
    if (!file) {
      // Outside a runner (or on one too old for output files): the command GitHub used to read.
      this.stdout(EOL);
      this.stdout(`::set-output name=${escapeProperty(name)}::${escapeData(value)}${EOL}`);
      return;
    }
    const delimiter = `ghadelimiter_${randomUUID()}`;
    if (name.includes(delimiter) || value.includes(delimiter))
      throw badRequest(`Unexpected input: the output ${name} contains the delimiter ${delimiter}.`);
    appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
  }

  /** Appends Markdown to the job summary shown on the run's page. */
  appendSummary(markdown: string): void {
    const file = this.env['GITHUB_STEP_SUMMARY'];
    if (!file)
      throw new DocwrightError(
        'internal_error',
        'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.',
        { retryable: false },
      );
    appendFileSync(file, markdown, 'utf8');
  }

  private command(name: string, message: string, properties: AnnotationProperties = {}): void {
    const given = Object.entries(properties).filter(([, value]) => value !== undefined);
    const list = given.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',');
    this.stdout(`::${name}${list === '' ? '' : ` ${list}`}::${escapeData(message)}${EOL}`);
  }
}

/** Where an annotation points: a file relative to the repository's root, a 1-based line, a title. */
export interface AnnotationProperties {
  file?: string;
  line?: number;
  title?: string;
}

/** A command's message: `%`, CR and LF are written as their percent codes, which the runner reads back. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command's property value: also `:` and `,`, which would end it. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
