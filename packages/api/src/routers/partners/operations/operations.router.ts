import { router } from "../../../trpc";
import { getOperation } from "./get-operation";
import { requestDeletion } from "./request-deletion";
import { requestProfileChange } from "./request-profile-change";
import { requestReprovision } from "./request-reprovision";

export const operationsRouter = router({ requestProfileChange, requestDeletion, requestReprovision, getOperation });
