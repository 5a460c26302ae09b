// hnswlib-wasm 0.8.2 was compiled with Emscripten's embind in its default dynamic-execution mode:
// every bound method's invoker is generated as source text and compiled with `new Function`, which
// the app's Content-Security-Policy forbids (script-src has 'wasm-unsafe-eval', never 'unsafe-eval').
// This Vite plugin replaces those two lines (bound methods, and emval's method callers) with the closure embind itself uses when built with
// DYNAMIC_EXECUTION=0: the same argument checks, wire-type conversions and destructor calls,
// without evaluating a string. The build fails if the line is not found (a new hnswlib-wasm
// version must be checked again).

const FILE = /hnswlib-wasm[\\/]dist[\\/]hnswlib-[0-9a-f]+\.js$/;
const EVAL_LINE = 'return newFunc(Function, args1).apply(null, args2);';
const CLOSURE = `return function (...args) {
        if (args.length !== argCount - 2) {
          throwBindingError('function ' + humanName + ' called with ' + args.length + ' arguments, expected ' + (argCount - 2) + ' args!');
        }
        var destructors = needsDestructorStack ? [] : null;
        var thisWired = isClassMethodFunc ? argTypes[1].toWireType(destructors, this) : undefined;
        var wired = [];
        for (var a = 0; a < argCount - 2; ++a) wired.push(argTypes[a + 2].toWireType(destructors, args[a]));
        var rv = isClassMethodFunc ? cppInvokerFunc(cppTargetFunc, thisWired, ...wired) : cppInvokerFunc(cppTargetFunc, ...wired);
        if (needsDestructorStack) {
          runDestructors(destructors);
        } else {
          for (var d = isClassMethodFunc ? 1 : 2; d < argTypes.length; ++d) {
            var param = d === 1 ? thisWired : wired[d - 2];
            if (argTypes[d].destructorFunction !== null) argTypes[d].destructorFunction(param);
          }
        }
        if (returns) return argTypes[0].fromWireType(rv);
      };`;

// emval's method caller (C++ calling a JS method through `val`), compiled the same way.
const EMVAL_LINE = 'var invokerFunction = newFunc(Function, params).apply(null, args);';
const EMVAL_CLOSURE = `var invokerFunction = function (handle, name, destructors, argsPtr) {
        var offset = 0;
        var argv = [];
        for (var a = 0; a < argCount - 1; ++a) {
          argv.push(types[1 + a].readValueFromPointer(argsPtr + offset));
          offset += types[1 + a]['argPackAdvance'];
        }
        var rv = handle[name](...argv);
        for (var d = 0; d < argCount - 1; ++d) if (types[1 + d]['deleteObject']) types[1 + d].deleteObject(argv[d]);
        if (!retType.isVoid) return retType.toWireType(destructors, rv);
      };`;

/** @param {string} code */
export function removeEval(code) {
  for (const line of [EVAL_LINE, EMVAL_LINE]) {
    if (code.split(line).length !== 2)
      throw new Error(`hnswlib-no-eval: "${line}" was not found exactly once; check this hnswlib-wasm version.`);
  }
  const rewritten = code.replace(EVAL_LINE, CLOSURE).replace(EMVAL_LINE, EMVAL_CLOSURE);
  if (rewritten.includes('newFunc(Function')) throw new Error('hnswlib-no-eval: another Function-constructor call remains.');
  return rewritten;
}

/** @returns {import('vite').Plugin} */
export function hnswlibNoEval() {
  return {
    name: 'engram-hnswlib-no-eval',
    enforce: 'pre',
    transform(code, id) {
      if (!FILE.test(id.split('?')[0] ?? '')) return undefined;
      return { code: removeEval(code), map: null };
    },
  };
}
