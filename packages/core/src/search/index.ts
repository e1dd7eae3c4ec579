// @mga/core/search: what the rest of the service may use of this area; everything else is internal.
export { searchDirectory } from "./search-directory";
