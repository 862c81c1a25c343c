declare const integerBrand: unique symbol;

/**
 * A number the model must send as a whole number: codegen maps it to JSON Schema `integer`.
 * Plain numbers are assignable to it (`limit: Integer = 5`). JSDoc `@asType integer` does the same.
 */
export type Integer = number & { readonly [integerBrand]?: "Integer" };
