// The only script of OTPKit's pages: what a form cannot do, which is talk to a passkey. Every
// other action is a plain form. Loaded from the server's own origin (the Content-Security-Policy
// allows no inline script); each button carries the form's CSRF token in data-csrf.
"use strict";

// Options come with bytes in base64 (either alphabet, padded or not); the browser wants buffers.
function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function base64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function credentialJSON(credential) {
  const response = {};
  for (const name of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (credential.response[name]) response[name] = base64url(credential.response[name]);
  }
  return { id: credential.id, rawId: base64url(credential.rawId), type: credential.type, response };
}

async function post(path, csrf, body) {
  const answer = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body || {}),
  });
  const json = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(json.message || answer.statusText);
  return json;
}

function showError(error) {
  const box = document.getElementById("passkey-error");
  if (!box) return;
  box.textContent = (box.dataset.prefix || "") + " " + (error && error.message ? error.message : String(error));
  box.hidden = false;
  box.focus();
}

// A new credential: a passkey that signs in alone, or a security key as a second factor, as the
// button's data-options and data-finish say.
async function createCredential(button) {
  const csrf = button.dataset.csrf;
  const options = await post(button.dataset.options, csrf);
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    user: { ...options.user, id: bytes(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((d) => ({ ...d, id: bytes(d.id) })),
  };
  const credential = await navigator.credentials.create({ publicKey });
  const answer = await post(button.dataset.finish, csrf, { credential: credentialJSON(credential) });
  window.location.assign(answer.location);
}

async function usePasskey(button, path, factor) {
  const csrf = button.dataset.csrf;
  const options = await post(path + "/options", csrf, factor ? { factor } : {});
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((d) => ({ ...d, id: bytes(d.id) })),
  };
  const credential = await navigator.credentials.get({ publicKey });
  const answer = await post(path, csrf, { credential: credentialJSON(credential), factor });
  window.location.assign(answer.location);
}

function wire(element, action) {
  if (!element) return;
  element.addEventListener("click", async () => {
    if (!window.PublicKeyCredential) return showError(new Error(element.dataset.unavailable || "passkeys are not available"));
    element.disabled = true;
    try {
      await action(element);
    } catch (error) {
      showError(error);
    } finally {
      element.disabled = false;
    }
  });
}

for (const button of document.querySelectorAll(".passkey-create")) wire(button, createCredential);
wire(document.getElementById("passkey-sign-in"), (button) => usePasskey(button, "/account/passkey-sign-in"));
for (const button of document.querySelectorAll(".passkey-factor")) {
  wire(button, () => usePasskey(button, "/account/second-factor/passkey", button.dataset.factor));
}
