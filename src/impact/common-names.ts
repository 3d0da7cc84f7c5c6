import { nameKey } from './name-shapes.js';

/**
 * Names of the languages' standard libraries that any project's code and examples use
 * (`toLowerCase`, `setTimeout`, `isinstance`, `Sprintf`). They look specific, but a page that
 * holds one shows how to call the language, not this project's option. Keys (see `nameKey`).
 */
export const STANDARD_LIBRARY_KEYS: ReadonlySet<string> = new Set(
  [
    // JavaScript and TypeScript
    'hasOwnProperty hasOwn toLowerCase toUpperCase toLocaleLowerCase startsWith endsWith indexOf',
    'lastIndexOf includes isArray toString valueOf setTimeout clearTimeout setInterval clearInterval',
    'setImmediate clearImmediate nextTick queueMicrotask Uint8Array Uint16Array Uint32Array Int8Array',
    'Int32Array Float32Array Float64Array ArrayBuffer SharedArrayBuffer DataView byteLength byteOffset',
    'isNaN isFinite parseInt parseFloat isInteger isSafeInteger getPrototypeOf setPrototypeOf',
    'defineProperty defineProperties getOwnPropertyNames getOwnPropertyDescriptor fromEntries',
    'addEventListener removeEventListener dispatchEvent EventEmitter removeListener removeAllListeners',
    'AbortController AbortSignal TextEncoder TextDecoder structuredClone WeakMap WeakSet WeakRef',
    'TypeError RangeError SyntaxError ReferenceError forEach findIndex flatMap padStart padEnd trimStart',
    'trimEnd localeCompare charCodeAt fromCharCode codePointAt toFixed toISOString getTime readFileSync',
    'writeFileSync existsSync createReadStream createWriteStream',
    // Python
    'isinstance issubclass getattr setattr hasattr delattr enumerate staticmethod classmethod',
    'init repr str eq hash dict kwargs ValueError KeyError IndexError AttributeError RuntimeError',
    'NotImplementedError',
    // Go, Rust, Java and C#
    'Sprintf Printf Println Errorf Fprintf Sprint Unwrap unwrap_or expect to_string as_str as_ref',
    'clone iter into_iter collect HashMap HashSet ArrayList toString equals hashCode getClass',
  ]
    .join(' ')
    .split(/\s+/)
    .filter((name) => name !== '')
    .map(nameKey),
);
