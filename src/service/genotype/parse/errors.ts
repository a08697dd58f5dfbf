/**
 * The one error type the parser throws internally. Its message is the sentence the user
 * reads; parseGenotypeFile catches it at the boundary and returns {ok:false, reason}.
 */
export class ParseError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ParseError';
  }
}

export function fail(reason: string): never {
  throw new ParseError(reason);
}
