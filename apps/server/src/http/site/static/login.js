/**
 * The popup's script: carries the session token from the fragment into the form (a
 * fragment never reaches the server), keeps it across a failed attempt, and once signed in
 * tells the opener (origin-checked: same origin only) and closes.
 */
(() => {
  const key = "mga:login-session";
  const storage = {
    get() {
      try {
        return sessionStorage.getItem(key);
      } catch {
        return null;
      }
    },
    set(v) {
      try {
        sessionStorage.setItem(key, v);
      } catch {
        /* storage refused: the form field keeps it */
      }
    },
    remove() {
      try {
        sessionStorage.removeItem(key);
      } catch {
        /* storage refused: nothing stored */
      }
    },
  };
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("session");
  if (fromHash) {
    storage.set(fromHash);
    history.replaceState(null, "", location.pathname);
  }
  const field = document.getElementById("session");
  if (field) field.value = fromHash || storage.get() || "";
  // Without a sign-in session (opened on its own) the form cannot succeed: say where to start, and no form.
  if (field && !field.value) {
    document.getElementById("no-session").hidden = false;
    field.form.hidden = true;
  }
  // A password set in another tab (from the emailed link): this window is where to use it.
  if (field && field.value && "BroadcastChannel" in window) {
    new BroadcastChannel("mga:site").onmessage = (event) => {
      if (event.data && event.data.type === "password-set") document.getElementById("password-set").hidden = false;
    };
  }
  if (document.getElementById("done")) {
    storage.remove();
    if (window.opener) window.opener.postMessage({ type: "mga:site-login", ok: true }, location.origin);
    setTimeout(() => window.close(), 300);
  }
})();
