/**
 * The slice of nunjucks 3.2.4 internals the adapter touches, typed once. The same shapes exist in
 * the Node package (`require('nunjucks')`) and in its browser bundle evaluated inside the isolate,
 * so every function that receives a `NunjucksModule` works in both places.
 */
export type AnyFunction = (...args: unknown[]) => unknown;

export interface NjFrame {
  variables: Record<string, unknown>;
  parent: NjFrame | null | undefined;
  lookup(name: string): unknown;
  set(name: string, value: unknown, resolveUp?: boolean): void;
  push(isolateWrites?: boolean): NjFrame;
}

export interface NjContext {
  ctx: Record<string, unknown>;
  env: { globals: Record<string, unknown> };
}

export interface NjSafeString {
  val: string;
  length: number;
}

export interface NjRuntime {
  memberLookup(obj: unknown, key: unknown): unknown;
  callWrap(fn: unknown, name: string, context: unknown, args: unknown[]): unknown;
  contextOrFrameLookup(context: NjContext, frame: NjFrame, name: string): unknown;
  fromIterator(value: unknown): unknown;
  suppressValue(value: unknown, autoescape: boolean): unknown;
  makeMacro(argNames: string[], kwargNames: string[], func: AnyFunction): AnyFunction;
  inOperator(key: unknown, value: unknown): boolean;
  Frame: { prototype: NjFrame };
  /** Added by runtime-hardening.ts; compile-guards.ts routes `~` and `+` through them. */
  vanceConcat?: (left: unknown, right: unknown) => string;
  vanceAdd?: (left: unknown, right: unknown) => unknown;
  SafeString: new (value: string) => NjSafeString;
}

export interface NjNode {
  typename: string;
  lineno: number;
  colno: number;
  fields: string[];
  children?: NjNode[];
  value?: unknown;
  [field: string]: unknown;
}

export interface NjCompilerPrototype {
  fail(message: string, lineno?: number, colno?: number): never;
  _emit(code: string): void;
  compile(node: unknown, frame: unknown): void;
  compileAdd(node: NjNode, frame: unknown): void;
  compileConcat(node: NjNode, frame: unknown): void;
  compileFilter(node: NjNode, frame: unknown): void;
  compileIs(node: NjNode, frame: unknown): void;
  compileLiteral(node: NjNode, frame: unknown): void;
}

export interface NjTemplate {
  render(context: Record<string, unknown>): string;
}

export interface NjEnvironment {
  opts: Record<string, unknown>;
  globals: Record<string, unknown>;
  filters: Record<string, AnyFunction>;
  tests: Record<string, AnyFunction>;
  extensions: Record<string, unknown>;
  loaders: { cache: Record<string, unknown> }[];
  addFilter(name: string, fn: AnyFunction): unknown;
  addTest(name: string, fn: AnyFunction): unknown;
}

export interface NjLoader {
  getSource(name: unknown): { src: string; path: string; noCache: boolean } | null;
}

export interface NunjucksModule {
  runtime: NjRuntime;
  compiler: { Compiler: { prototype: NjCompilerPrototype }; compile(src: string, asyncFilters: string[], extensions: unknown[], name: string, opts: Record<string, unknown>): string };
  parser: { parse(src: string, extensions: unknown[], opts: Record<string, unknown>): NjNode };
  lexer: { lex(src: string, opts: Record<string, unknown>): { nextToken(): { type: string; value: string; lineno: number; colno: number } | null } };
  Environment: new (loaders: NjLoader[], opts: Record<string, unknown>) => NjEnvironment;
  Template: new (src: string, env: NjEnvironment, path: string | undefined, eagerCompile: boolean) => NjTemplate;
}

/** An error raised on purpose by the hardening, carrying the TemplateRenderError reason. */
export type LimitReason = 'SYNTAX' | 'FORBIDDEN' | 'TIMEOUT' | 'OUTPUT_LIMIT' | 'RUNTIME';
export type Fail = (reason: LimitReason, message: string) => never;
