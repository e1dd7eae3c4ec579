// @mga/core/observe: the seam through which the host observes core's work (metrics, traces).
export { NO_OBSERVER, type Observer, type UpstreamOutcome } from "./observer";
