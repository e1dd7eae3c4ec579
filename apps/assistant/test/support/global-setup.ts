export { globalSetup as default } from "@mga/core/testing";
