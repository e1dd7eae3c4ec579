import { router } from "../../../trpc";
import { getUser } from "./get-user";
import { listUsers } from "./list-users";
import { patchUser } from "./patch-user";
import { putUser } from "./put-user";

export const usersRouter = router({ listUsers, putUser, getUser, patchUser });
