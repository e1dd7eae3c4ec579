// @mga/core/search: what the rest of the service may use of this area; everything else is internal.
export { SEARCH_KINDS, searchDirectory } from "./search-directory";
