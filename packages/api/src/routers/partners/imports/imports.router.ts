import { router } from "../../../trpc";
import { createImport } from "./create-import";
import { getImport } from "./get-import";

export const importsRouter = router({ createImport, getImport });
