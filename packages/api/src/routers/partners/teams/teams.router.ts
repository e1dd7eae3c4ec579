import { router } from "../../../trpc";
import { getTeam } from "./get-team";
import { listTeams } from "./list-teams";
import { patchTeam } from "./patch-team";
import { putTeam } from "./put-team";

export const teamsRouter = router({ listTeams, putTeam, getTeam, patchTeam });
