/**
 * The link pages' script: the token comes in the fragment (never sent to a server, never in a
 * Referer); it goes into the form and out of the address bar at once.
 */
(() => {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const field = document.getElementById("token");
  if (token && field) {
    field.value = token;
    history.replaceState(null, "", location.pathname);
  }
})();
