import { REALM_GUARD_SOURCE } from './script-realm-guard';

/**
 * The guest side of the script sandbox: the source compiled once per isolate (script-pool.ts) and
 * run in every new context before any user code. Its completion value is `start`, which the
 * host holds as a Reference and calls once per run — many runs per context when `reuse` is true:
 * `start` first asks the realm guard (script-realm-guard.ts) whether the previous run left the
 * context as it found it, and returns 'r' (run me in a fresh context) when not. The guest global never holds a Reference (a
 * Reference can be walked to the host's Function and `process`), only closures over it.
 *
 * Everything the driver needs from the language (JSON, eval, Reflect.apply, …) is captured here,
 * before user code runs, so a script that replaces JSON.stringify or String.prototype.slice changes
 * only its own behaviour. The bootstrap is strict, so stack frames of its functions give nothing to
 * `Error.prepareStackTrace` (getThis/getFunction are undefined for strict frames), and `caller`
 * stops at them.
 *
 * Protocol (all strings, copied): `start(host, setupJson, code, reuse)` returns 'v' + result JSON,
 * 'e' + GuestFailure JSON, or 'r' when the context is not clean (nothing of the run was read yet);
 * `start(null, '', '', true)` takes the guard's snapshot (a new context) or checks the context clean
 * (after a run) and returns 'p', or 'r' when it is not clean. A host call sends (index, argsJson) and gets 'v' + JSON, 'u' (undefined),
 * 'e' + message (the host function failed) or 'o' + message (refused at the boundary: size/depth).
 * It is plain JavaScript in a string, not a TypeScript function passed through String(): tsx and
 * esbuild rewrite functions (e.g. `__name(...)` calls) in ways the isolate cannot run.
 */

/** What `start` receives as its setup (JSON). */
export interface GuestSetup {
  readonly args: unknown;
  /** The `vance` tree without its functions; every object on a function's path already exists. */
  readonly values: Record<string, unknown>;
  readonly functions: readonly { readonly index: number; readonly path: readonly string[] }[];
  readonly functionBody: boolean;
  readonly maxResultChars: number;
  readonly maxHostArgChars: number;
  readonly maxMessageChars: number;
  /** Four 32-bit words from the host's CSPRNG: this run's Math.random seed. */
  readonly seed: readonly number[];
}

/**
 * Why a run failed, as the guest saw it. HOST/OUTPUT: the uncaught exception is the very error a
 * host call raised (the host function failed / the call was refused for size or depth); the host
 * accepts HOST only if it recorded a host failure in this run. RESULT_SIZE: the result's JSON is too long.
 */
export interface GuestFailure {
  readonly kind: 'GUEST' | 'HOST' | 'OUTPUT' | 'RESULT_SIZE';
  readonly name: string;
  readonly message: string;
  readonly stack: string;
  readonly size?: number;
}

export const BOOTSTRAP_FILENAME = 'vance-sandbox-bootstrap.js';

export const BOOTSTRAP_SOURCE = `(function () {
  'use strict';
  var evalGlobal = eval;
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var apply = Reflect.apply;
  var ownKeys = Reflect.ownKeys;
  var defineProperty = Object.defineProperty;
  var freeze = Object.freeze;
  var create = Object.create;
  var hasOwn = Object.prototype.hasOwnProperty;
  var stringSlice = String.prototype.slice;
  var toText = String;
  var GuestError = Error;
  var GuestRangeError = RangeError;
  var GuestTypeError = TypeError;
  var global = globalThis;
  var guard = ${REALM_GUARD_SOURCE}(global);

  function cap(text, max) {
    return text.length > max ? apply(stringSlice, text, [0, max]) + '…' : text;
  }

  // A guest value as text, computed in the guest (getters and toString of guest objects run here,
  // under the run's time limit, never on the host).
  function text(value) {
    try { return typeof value === 'string' ? value : toText(value); } catch (e) { return '(a value that cannot be printed)'; }
  }

  function read(object, key) {
    try { return object[key]; } catch (e) { return undefined; }
  }

  function deepFreeze(value) {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      var keys = ownKeys(value);
      for (var i = 0; i < keys.length; i++) deepFreeze(value[keys[i]]);
      freeze(value);
    }
    return value;
  }

  // Configurable, so that the realm guard can delete it before the next run in this context.
  function readOnly(target, key, value) {
    defineProperty(target, key, { value: value, writable: false, enumerable: false, configurable: true });
  }

  function failure(kind, thrown, setup, size) {
    var name = 'Uncaught', message, stack = '';
    if (thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function')) {
      var n = read(thrown, 'name'), m = read(thrown, 'message'), s = read(thrown, 'stack');
      if (typeof n === 'string') name = n;
      message = typeof m === 'string' ? m : text(thrown);
      if (typeof s === 'string') stack = s;
    } else {
      message = text(thrown);
    }
    var max = setup.maxMessageChars;
    // No prototype: a script's Object.prototype.toJSON cannot replace (or inflate) the report.
    var report = create(null);
    report.kind = kind;
    report.name = cap(name, 200);
    report.message = cap(message, max);
    report.stack = cap(stack, max);
    report.size = size;
    return 'e' + stringify(report);
  }

  // One host function as a guest function: arguments go out as JSON (length checked here, before
  // anything is copied), the guest blocks in applySyncPromise until the host promise settles.
  function hostFunction(host, call, entry, setup, run) {
    var label = 'vance.' + entry.path.join('.');
    // An arrow: no prototype, not a constructor, nothing to walk but Function.prototype.
    return (...list) => {
      var json;
      try {
        json = stringify(list);
      } catch (e) {
        throw new GuestTypeError(label + ': the arguments cannot be sent to the host: ' + cap(text(read(e, 'message')), 500));
      }
      if (json.length > setup.maxHostArgChars) {
        throw boundary(run, 'OUTPUT', new GuestRangeError(label + ': the arguments: ' + json.length
          + ' characters of JSON, over the limit of ' + setup.maxHostArgChars));
      }
      var reply = apply(call, host, [undefined, [entry.index, json]]);
      var tag = reply[0];
      var body = apply(stringSlice, reply, [1]);
      if (tag === 'v') return parse(body);
      if (tag === 'u') return undefined;
      throw tag === 'o' ? boundary(run, 'OUTPUT', new GuestRangeError(body)) : boundary(run, 'HOST', new GuestError(body));
    };
  }

  // Remembers the error a host call raised, so an uncaught one is reported with its kind (the
  // identity check cannot be faked by user code: it never sees run).
  function boundary(run, kind, error) {
    run.boundary = error;
    run.boundaryKind = kind;
    return error;
  }

  function buildVance(host, setup, run) {
    var call = host.applySyncPromise;
    var vance = setup.values;
    for (var i = 0; i < setup.functions.length; i++) {
      var entry = setup.functions[i], node = vance, path = entry.path;
      for (var j = 0; j < path.length - 1; j++) {
        if (!apply(hasOwn, node, [path[j]])) throw new GuestError('sandbox: bad binding path');
        node = node[path[j]];
      }
      defineProperty(node, path[path.length - 1], {
        value: hostFunction(host, call, entry, setup, run), writable: true, enumerable: true, configurable: true,
      });
    }
    return deepFreeze(vance);
  }

  function finish(value, setup, run) {
    try {
      if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof read(value, 'then') === 'function') {
        throw new GuestTypeError('the result is a Promise; scripts run synchronously (vance.* calls block), return a value');
      }
      var json = stringify(value);
      if (json === undefined) return 'vnull';
      if (json.length > setup.maxResultChars) return failure('RESULT_SIZE', null, setup, json.length);
      return 'v' + json;
    } catch (thrown) {
      return failure(thrown === run.boundary ? run.boundaryKind : 'GUEST', thrown, setup);
    }
  }

  return function start(host, setupJson, code, reuse) {
    // host null: only take the guard's snapshot (a new context) or check it clean (after a run),
    // outside any run's time limit.
    if (host === null) return guard.settle() ? 'p' : 'r';
    if (!guard.enter(reuse)) return 'r';
    var setup = parse(setupJson);
    guard.reseed(setup.seed);
    var run = { boundary: null, boundaryKind: 'GUEST' };
    readOnly(global, 'args', deepFreeze(setup.args));
    readOnly(global, 'vance', buildVance(host, setup, run));
    var value;
    try {
      value = evalGlobal(code);
      if (setup.functionBody) value = value();
    } catch (thrown) {
      return failure(thrown === run.boundary ? run.boundaryKind : 'GUEST', thrown, setup);
    }
    return finish(value, setup, run);
  };
})()`;
