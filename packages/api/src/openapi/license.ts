/**
 * The API's license as the OpenAPI document states it (`info.license`), and the page its URL
 * points to on the public origin, so the link in the document always resolves.
 */
export const LICENSE_NAME = "Proprietary";
export const LICENSE_PATH = "/license";
export const LICENSE_TEXT = `Proprietary.

This API, its OpenAPI document and the software behind them are proprietary. Use is permitted
only to organizations holding an API key issued to them, under their agreement with the
operator of this service, and only as that agreement allows.
`;
