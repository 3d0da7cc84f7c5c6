import {
  isDocsFramework,
  unknownFrameworkMessage,
  type DeclaredDocsFramework,
} from '../core/docs-frameworks.js';
import { UsageError } from './exit-codes.js';

/** A `--docs-framework` value, or a usage error naming the frameworks docwright knows. */
export function parseFramework(value: string): DeclaredDocsFramework {
  const name = value.trim().toLowerCase();
  if (!isDocsFramework(name)) throw new UsageError(`--docs-framework: ${unknownFrameworkMessage(value)}`);
  return name;
}
