"""Registers and signs in with a passkey through otpkit-server's REST API in a real browser:
Debian's Chromium, headless, driven by Selenium, with the DevTools protocol's virtual authenticator
(CTAP2, internal transport, resident keys, user verification) answering
navigator.credentials.create and .get on a test page. Nothing of OTPKit's runs here but the server.

The page and the API share one origin, as an app behind its own domain would: this script serves
the page on localhost and passes /api/… on to the server. It prints "PAGE PORT n" once it listens,
reads the server's port from standard input, then runs the journey and prints one JSON object of
what each step answered."""
import base64
import http.server
import json
import sys
import threading
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PAGE = """<!doctype html><meta charset="utf-8"><title>OTPKit passkeys</title>
<script>
const bytes = text => Uint8Array.from(atob(text), c => c.charCodeAt(0));
const base64url = buffer => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/[+]/g, "-").replace(/[/]/g, "_").replace(/=+$/, "");
async function call(path, body) {
  const answer = await fetch("/api/" + path + "?key=demo-key",
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  return {status: answer.status, body: await answer.json()};
}
const v2 = "identitytoolkit.googleapis.com/v2/accounts/";
window.signUp = () => call("identitytoolkit.googleapis.com/v1/accounts:signUp", {returnSecureToken: true});
window.lookup = idToken => call("identitytoolkit.googleapis.com/v1/accounts:lookup", {idToken});
window.register = async (idToken, name) => {
  const start = await call(v2 + "passkeyEnrollment:start", {idToken});
  if (start.status !== 200) return {stage: "start", ...start};
  const options = start.body.credentialCreationOptions;
  const publicKey = {...options, challenge: bytes(options.challenge), user: {...options.user, id: bytes(options.user.id)},
    excludeCredentials: options.excludeCredentials.map(c => ({...c, id: bytes(c.id)}))};
  let credential;
  try { credential = await navigator.credentials.create({publicKey}); }
  catch (error) { return {stage: "browser", error: error.name}; }
  const response = {id: credential.id, rawId: base64url(credential.rawId), type: credential.type,
    response: {clientDataJSON: base64url(credential.response.clientDataJSON),
               attestationObject: base64url(credential.response.attestationObject)}};
  return {stage: "finalize", ...(await call(v2 + "passkeyEnrollment:finalize",
    {idToken, name, authenticatorRegistrationResponse: response}))};
};
window.signIn = async () => {
  const start = await call(v2 + "passkeySignIn:start", {});
  if (start.status !== 200) return {stage: "start", ...start};
  const options = start.body.credentialRequestOptions;
  let credential;
  try { credential = await navigator.credentials.get({publicKey: {...options, challenge: bytes(options.challenge)}}); }
  catch (error) { return {stage: "browser", error: error.name}; }
  const r = credential.response;
  const response = {id: credential.id, rawId: base64url(credential.rawId), type: credential.type,
    response: {clientDataJSON: base64url(r.clientDataJSON), authenticatorData: base64url(r.authenticatorData),
               signature: base64url(r.signature), userHandle: base64url(r.userHandle)}};
  return {stage: "finalize", ...(await call(v2 + "passkeySignIn:finalize", {authenticatorAuthenticationResponse: response}))};
};
</script>"""

api_port = None


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, kind):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(200, PAGE.encode(), "text/html; charset=utf-8")

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        request = urllib.request.Request(
            f"http://localhost:{api_port}/" + self.path.removeprefix("/api/"), data=body,
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                self.answer(answer.status, answer.read(), "application/json")
        except urllib.error.HTTPError as error:
            self.answer(error.code, error.read(), "application/json")


server = http.server.ThreadingHTTPServer(("localhost", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"PAGE PORT {server.server_address[1]}", flush=True)
api_port = int(sys.stdin.readline())

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
results = {}
try:
    driver.get(f"http://localhost:{server.server_address[1]}/")
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    authenticator = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True}})["authenticatorId"]

    def run(function, *arguments):
        script = f"const done = arguments[arguments.length - 1]; window.{function}(...Array.from(arguments).slice(0, -1))" \
            ".then(done, error => done({stage: 'script', error: String(error)}));"
        return driver.execute_async_script(script, *arguments)

    def override(**bits):
        driver.execute_cdp_cmd("WebAuthn.setResponseOverrideBits", {"authenticatorId": authenticator, **bits})

    driver.set_script_timeout(60)
    signed_up = run("signUp")
    id_token = signed_up["body"]["idToken"]
    results["signUp"] = signed_up
    results["register"] = run("register", id_token, "Chromium")
    results["registerAgain"] = run("register", id_token, "Chromium again")
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    results["authenticatorCredentialIds"] = [
        base64.urlsafe_b64encode(base64.b64decode(c["credentialId"])).rstrip(b"=").decode() for c in credentials]
    results["lookup"] = run("lookup", id_token)
    results["signIn"] = run("signIn")
    results["signInAgain"] = run("signIn")
    override(isBadUV=True)
    results["withoutUserVerification"] = run("signIn")
    override(isBadUP=True)
    results["withoutUserPresence"] = run("signIn")
    override(isBogusSignature=True)
    results["bogusSignature"] = run("signIn")
    override()
    # The same key again with its counter back at 0, as a clone of it would count.
    credential = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"][0]
    results["counterBeforeClone"] = credential["signCount"]
    driver.execute_cdp_cmd("WebAuthn.removeCredential", {"authenticatorId": authenticator, "credentialId": credential["credentialId"]})
    credential["signCount"] = 0
    driver.execute_cdp_cmd("WebAuthn.addCredential", {"authenticatorId": authenticator, "credential": credential})
    results["clone"] = run("signIn")
finally:
    driver.quit()
    server.shutdown()
json.dump(results, sys.stdout)
print(flush=True)
