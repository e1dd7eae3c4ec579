export { default } from "../../src/testing/global-setup";
