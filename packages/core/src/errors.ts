/** Typed store errors. `status` is the HTTP status a server answers with for this error. */
export class StoreError extends Error {
  readonly status: number = 500;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** An id (rollout, attempt, resources, worker) that the store does not know. */
export class NotFoundError extends StoreError {
  override readonly status = 404;
}

/** An argument that is malformed or out of range; the message names the field. */
export class ValidationError extends StoreError {
  override readonly status = 400;
}

/** The store has been closed. */
export class StoreClosedError extends StoreError {
  override readonly status = 503;
}
