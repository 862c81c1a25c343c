/** The error `fn` throws, checked to be an instance of `type` (a test fails when it throws nothing or something else). */
export function thrownError<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error("expected the function to throw");
}
