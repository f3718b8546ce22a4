/**
 * The port for reading a large stored document off the event loop (issue 13): a skill or recipe near
 * the 1 MB limit costs about a second to parse, and loading one for a turn or a listing held every
 * tenant's requests that long. Loaders parse documents of at least `minChars` through it; smaller
 * ones (nearly all: real skills are a few KB) are parsed in place, where a worker round trip would
 * cost more than the parse. The adapter is the validation pool (validation/).
 */
export interface LargeDocumentParser<Input, Output> {
  readonly minChars: number;
  parse(input: Input): Promise<Output>;
}
