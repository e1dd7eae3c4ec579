"use client";

import { createContext, useContext } from "react";
import { type FormState, idleState } from "@/lib/form-state";

/** The state of the enclosing ActionForm, for its fields and buttons. */
export const FormStateContext = createContext<{ state: FormState; pending: boolean }>({ state: idleState, pending: false });

export function useFormOutcome() {
  return useContext(FormStateContext);
}
