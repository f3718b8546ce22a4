/**
 * What lets a warm script isolate run the next script in the SAME context instead of a fresh one
 * (a fresh context costs ~0.5–0.9 ms, most of a small script's run): a guest-side guard, built by
 * the bootstrap before any user code, that proves at the start of every run that the previous run
 * left nothing behind — and otherwise says so, and the host runs the script in a fresh context.
 *
 * - When: the host asks for the check (`settle`) right after a run, in a call of its own, so the
 *   next run finds it done and pays nothing for it unless it comes before the check has finished
 *   (then it waits for it, as it paid for it before). No guest code runs between the check and the
 *   next run: there are no timers, and a run's promise jobs all run before its call returns.
 * - Snapshot, taken before the first run of a context that is to be reused: every object reachable
 *   from the global object and from the intrinsics that no property reaches (the iterator,
 *   generator and async-function prototypes, …), by own keys, property descriptors
 *   (value/getter/setter identity and flags), prototype and extensibility. Taking it costs ~5–40 ms
 *   (V8 instantiates its lazy intrinsics), so a context used once (a cold isolate, `reuseContexts:
 *   false`) skips it and is never entered again; checking it again takes ~30–50 µs (about 700
 *   objects, 2 100 properties).
 * - Clean between runs: globals a run added (sloppy `var`, function declarations, assignments) are
 *   deleted when they are configurable; `let`/`const`/`class` of the eval'd code never reach the
 *   global scope (an indirect eval has its own lexical environment). Anything else that differs —
 *   a changed built-in, a prototype, a frozen or non-configurable global — makes the context dirty.
 * - No callbacks after a run: the APIs whose callbacks V8 runs later, outside the run that
 *   registered them, are removed (FinalizationRegistry, Atomics.waitAsync, the asynchronous
 *   WebAssembly compilers); promise jobs all run before a run's call returns.
 * - State that is no property: RegExp's legacy statics (RegExp.$1, lastMatch, …) are cleared by one
 *   empty match; Math.random is a generator reseeded from the host's CSPRNG every run, so one run
 *   cannot predict the next run's numbers from its own.
 *
 * It is plain JavaScript in a string (like script-bootstrap.ts), evaluated to a function of the
 * global object that returns `{ enter(reuse), settle(), reseed(seed) }`; the API removal and the reseedable
 * Math.random apply to every context, reused or not, so a script sees the same language either way. Everything it calls is captured first;
 * it reads only own properties of descriptors and of its own null-prototype records, so a polluted
 * prototype cannot run code inside the check.
 */
export const REALM_GUARD_SOURCE = `(function (global) {
  'use strict';
  var ownKeys = Reflect.ownKeys, describe = Reflect.getOwnPropertyDescriptor, protoOf = Reflect.getPrototypeOf;
  var isExtensible = Reflect.isExtensible, remove = Reflect.deleteProperty, define = Reflect.defineProperty;
  var freeze = Object.freeze, isFrozen = Object.isFrozen;
  var apply = Reflect.apply, same = Object.is, create = Object.create, hasOwn = Object.prototype.hasOwnProperty;
  var regexExec = RegExp.prototype.exec, emptyRegex = /(?:)/;
  var KeySet = Set, setHas = Set.prototype.has, setAdd = Set.prototype.add;

  // Callbacks that would run after the run that registered them, possibly inside the next one.
  remove(global, 'FinalizationRegistry');
  if (typeof Atomics === 'object') remove(Atomics, 'waitAsync');
  if (typeof WebAssembly === 'object') {
    remove(WebAssembly, 'compile');
    remove(WebAssembly, 'instantiate');
    remove(WebAssembly, 'compileStreaming');
    remove(WebAssembly, 'instantiateStreaming');
  }

  // sfc32, seeded per run by the host.
  var s0 = 0, s1 = 0, s2 = 0, s3 = 1;
  var random = () => {
    var t = (((s0 + s1) | 0) + s3) | 0;
    s3 = (s3 + 1) | 0;
    s0 = s1 ^ (s1 >>> 9);
    s1 = (s2 + (s2 << 3)) | 0;
    s2 = (s2 << 21) | (s2 >>> 11);
    s2 = (s2 + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  define(Math, 'random', { value: random, writable: true, enumerable: false, configurable: true });

  // entries: every watched object (the global object first); changeable: those not frozen, the
  // only ones a run can change.
  var entries = null, changeable = null, globalKeys = null;

  function flags(d, accessor) {
    return (d.enumerable ? 1 : 0) | (d.configurable ? 2 : 0) | (accessor ? 8 : (d.writable ? 4 : 0));
  }

  // Takes the snapshot (once, before the context's first run when it is to be reused). Walking every
  // intrinsic makes V8 instantiate its lazy ones: ~5–40 ms, so a context used once never pays it.
  function watch() {
    // Intrinsics no property reaches: made once here, their prototype chains join the snapshot.
    var roots = [global];
    function tryRoot(make) {
      try { roots[roots.length] = make(); } catch (e) { /* not in this V8 */ }
    }
    tryRoot(() => [][Symbol.iterator]());
    tryRoot(() => new Map()[Symbol.iterator]());
    tryRoot(() => new Set()[Symbol.iterator]());
    tryRoot(() => ''[Symbol.iterator]());
    tryRoot(() => /a/[Symbol.matchAll]('a'));
    tryRoot(() => function* () {});
    tryRoot(() => (function* () {})());
    tryRoot(() => async function () {});
    tryRoot(() => async function* () {});
    tryRoot(() => (async function* () {})());
    tryRoot(() => [].values().map((x) => x));
    tryRoot(() => Iterator.from({ next: () => ({ done: true }) }));
    tryRoot(() => new Intl.Segmenter().segment(''));
    tryRoot(() => new Intl.Segmenter().segment('')[Symbol.iterator]());

    entries = [];
    var seen = new KeySet();
    function visit(o) {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || apply(setHas, seen, [o])) return;
      apply(setAdd, seen, [o]);
      var keys = ownKeys(o), values = [];
      // A built-in method (a function with only its length and name): frozen, so it is never checked
      // again (~570 of ~740 objects). Its length and name are read-only already; what a script loses
      // is adding properties to, or redefining, a built-in method.
      if (typeof o === 'function' && keys.length === 2 && keys[0] === 'length' && keys[1] === 'name') freeze(o);
      var entry = create(null);
      entry.object = o; entry.proto = protoOf(o); entry.extensible = isExtensible(o); entry.keys = keys; entry.values = values;
      entries[entries.length] = entry;
      for (var i = 0; i < keys.length; i++) {
        var d = describe(o, keys[i]);
        if (apply(hasOwn, d, ['value'])) { values[3 * i] = d.value; values[3 * i + 1] = undefined; values[3 * i + 2] = flags(d, false); }
        else { values[3 * i] = d.get; values[3 * i + 1] = d.set; values[3 * i + 2] = flags(d, true); }
      }
      visit(entry.proto);
      for (var j = 0; j < values.length; j += 3) { visit(values[j]); visit(values[j + 1]); }
    }
    for (var r = 0; r < roots.length; r++) visit(roots[r]);
    changeable = [];
    for (var c = 0; c < entries.length; c++) if (!isFrozen(entries[c].object)) changeable[changeable.length] = entries[c];
    globalKeys = new KeySet();
    for (var g = 0; g < entries[0].keys.length; g++) apply(setAdd, globalKeys, [entries[0].keys[g]]);
  }

  function unchanged(entry) {
    var o = entry.object;
    if (protoOf(o) !== entry.proto || isExtensible(o) !== entry.extensible) return false;
    var keys = ownKeys(o), known = entry.keys, values = entry.values;
    if (keys.length !== known.length) return false;
    for (var i = 0; i < keys.length; i++) if (keys[i] !== known[i]) return false;
    for (var j = 0; j < keys.length; j++) {
      var d = describe(o, keys[j]);
      if (apply(hasOwn, d, ['value'])) {
        if (!same(values[3 * j], d.value) || values[3 * j + 2] !== flags(d, false)) return false;
      } else if (values[3 * j] !== d.get || values[3 * j + 1] !== d.set || values[3 * j + 2] !== flags(d, true)) {
        return false;
      }
    }
    return true;
  }

  // Deletes the globals a run added; false when one cannot be deleted, or when there are so many
  // that deleting them would cost the next run more than a fresh context.
  function dropAddedGlobals() {
    var keys = ownKeys(global);
    if (keys.length > entries[0].keys.length + 1000) return false;
    for (var i = 0; i < keys.length; i++) {
      if (apply(setHas, globalKeys, [keys[i]])) continue;
      var d = describe(global, keys[i]);
      if (!d || !d.configurable || !remove(global, keys[i])) return false;
    }
    return true;
  }

  var used = false, settled = false;
  // Whether this run may use the context: a first run always may (taking the snapshot first when
  // the context is to be reused); a later one only in a watched context that is clean again.
  function enter(reuse) {
    // Proven clean by settle() after the last run; no guest code ran since.
    if (settled) {
      settled = false;
      if (reuse) return true;
    }
    if (!used) {
      used = true;
      if (reuse) watch();
      return true;
    }
    if (!reuse || entries === null) return false;
    if (!dropAddedGlobals()) return false;
    // A frozen object cannot change at all (keys, values, flags, prototype): only the rest is checked.
    for (var i = 0; i < changeable.length; i++) if (!unchanged(changeable[i])) return false;
    apply(regexExec, emptyRegex, ['']);
    return true;
  }
  return {
    enter: enter,
    // enter(true) between runs, so that the next run's enter() finds the work done: the host calls
    // it right after a run, off the next run's path.
    settle: function () {
      settled = enter(true);
      return settled;
    },
    reseed: function (seed) {
      s0 = seed[0] | 0; s1 = seed[1] | 0; s2 = seed[2] | 0; s3 = seed[3] | 0;
      for (var i = 0; i < 12; i++) random();
    },
  };
})`;
