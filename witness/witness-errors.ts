/**
 * The refusals of C2SP tlog-witness `add-checkpoint` (c2sp.org/tlog-witness), each once with
 * its status. The HTTP adapters turn them into responses (`witness-routes.ts`); nothing else
 * builds an error response.
 */

/** A request the witness refuses with the status the spec gives. */
export class WitnessRefusalError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** 400: the body is not an add-checkpoint body, or its old size is above the checkpoint's. */
export class BadRequestError extends WitnessRefusalError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 403: no signature of a trusted key for the origin, or one of them does not verify. */
export class ForbiddenError extends WitnessRefusalError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404: an origin the witness does not follow (or, for monitors, never cosigned). */
export class NotFoundError extends WitnessRefusalError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 409: the old size is not the size the witness last cosigned, which it answers with. */
export class ConflictError extends WitnessRefusalError {
  constructor(readonly treeSize: number) {
    super(409, `the witness last cosigned size ${treeSize}`);
  }
}

/** 422: the checkpoint is not consistent with what the witness cosigned before. */
export class UnprocessableError extends WitnessRefusalError {
  constructor(message: string) {
    super(422, message);
  }
}
