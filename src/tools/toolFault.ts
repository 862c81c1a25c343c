/**
 * Why a failed tool call is the developer's to fix, with what the developer needs to fix it: the
 * original error (`threw`, `outputsToState`, `outputsToString`), or the injected parameter whose
 * state key had no usable value (`inputsFromState`). The model's mistakes (an unknown tool, invalid
 * arguments), a person's rejection and a time limit are not faults: the model is told, and that is
 * the whole story.
 */
export type ToolFault =
  | { readonly kind: "threw"; readonly error: unknown }
  | { readonly kind: "outputsToState"; readonly error: unknown; readonly stateKey: string }
  | { readonly kind: "outputsToString"; readonly error: unknown }
  | {
      readonly kind: "inputsFromState";
      readonly stateKey: string;
      readonly parameter: string;
      readonly problem: "missing" | "wrongType";
      /** The sentence the model is sent too: it names the key, the parameter and the fix, never the value. */
      readonly message: string;
    };
