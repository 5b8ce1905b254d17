/** Upstream `Adapter[T_from, T_to]`: turns one kind of data into another. */
export interface Adapter<From, To> {
  adapt(source: From): To;
}
