/**
 * The password-setup pages' script: the token moves from the fragment into the form, then is
 * checked (without being used) so that a used or expired link says so before any password is
 * typed. After success: "Return to the chat" closes a window opened from the chat; a page
 * opened on its own (from the email) points back to the assistant's sign-in window, which it
 * tells of the new password.
 */
(() => {
  const $ = (id) => document.getElementById(id);
  // Set: a sign-in window of the assistant open in this browser learns of it (LOGIN_SCRIPT).
  if ($("return") && "BroadcastChannel" in window)
    new BroadcastChannel("mga:site").postMessage({ type: "password-set" });
  if ($("return") && window.opener) {
    $("next").hidden = true;
    $("return").hidden = false;
    $("return").onclick = () => window.close();
    return;
  }
  const field = $("token");
  if (!field) return;
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token) {
    field.value = token;
    history.replaceState(null, "", location.pathname);
  }
  const dead = () => {
    $("link-dead").hidden = false;
    $("password-form").hidden = true;
  };
  if (!field.value) return dead();
  fetch("/site/api/password-setup/check", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: field.value }),
  })
    .then((res) => (res.ok ? res.json() : { usable: true }))
    .then((body) => {
      if (!body.usable) dead();
    })
    .catch(() => {});
})();
