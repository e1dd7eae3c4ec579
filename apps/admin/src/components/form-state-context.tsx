"use client";

import { idleState, type FormState } from "@/lib/form-state";
import { createContext, useContext } from "react";

/** The state of the enclosing ActionForm, for its fields and buttons. */
export const FormStateContext = createContext<{ state: FormState; pending: boolean }>({
  state: idleState,
  pending: false,
});

export function useFormOutcome() {
  return useContext(FormStateContext);
}
