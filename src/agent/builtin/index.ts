/** The built-in agent (model `builtin`): offline, deterministic docs edits. */
export { BuiltinAgent } from './builtin-agent.js';
export { INSTRUCTION_FORMS } from './instruction-forms.js';
export { parseInstruction } from './parse-instruction.js';
