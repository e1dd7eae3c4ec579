import { router } from "../../trpc";
import { getMe } from "./get-me";

export const keysRouter = router({ getMe });
