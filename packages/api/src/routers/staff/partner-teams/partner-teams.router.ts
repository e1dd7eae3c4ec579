import { router } from "../../../trpc";
import { listStaffPartnerTeams } from "./list-partner-teams";

/** Teams (read only: partners own them through the API). */
export const staffPartnerTeamsRouter = router({ list: listStaffPartnerTeams });
