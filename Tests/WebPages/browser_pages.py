"""The account page and the admin console in a real browser: Debian's Chromium, headless, driven
by Selenium, against otpkit-server at BASE (an origin on localhost, passkeys configured for it).

A person's journey, each step through the pages as they would take it: sign up, verify the
address from the email, enroll an authenticator app (its key read from the page, its QR code
decoded by zbarimg, its codes computed by pyotp), generate recovery codes, add a passkey with
the DevTools virtual authenticator, sign out, sign in with the second factor, with a recovery
code and with the passkey; then, as the console's administrator, reset another user's second
factors with a reason and find it in the audit log; last, sign in through an identity provider on
another origin. Screenshots of each page at a desktop and a
phone width go to SCREENSHOTS. Prints one JSON object of what it saw; the Swift test judges.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pyotp
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ["BASE"]
PROJECT = os.environ.get("PROJECT", "demo-otpkit")
SHOTS = os.environ["SCREENSHOTS"]
ADMIN, BOB, PASSWORD = "ada@example.com", "bob@example.com", "correct horse battery"
results = {"pages": {}}


def api(path, body, administrator=False):
    headers = {"Content-Type": "application/json"}
    if administrator:
        headers["Authorization"] = "Bearer owner"
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def oob_code(email, kind):
    with urllib.request.urlopen(f"{BASE}/emulator/v1/projects/{PROJECT}/oobCodes", timeout=30) as answer:
        codes = [c for c in json.load(answer)["oobCodes"] if c["email"] == email and c["requestType"] == kind]
    return codes[-1]["oobCode"]


def bob_with_a_factor():
    """Bob, made through the REST API as an app would: an account, its address verified by the
    administrator, an authenticator app enrolled with pyotp's code."""
    key = "?key=demo-key"
    signed_up = api("/identitytoolkit.googleapis.com/v1/accounts:signUp" + key, {"email": BOB, "password": PASSWORD, "returnSecureToken": True})
    api(f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:update", {"localId": signed_up["localId"], "emailVerified": True},
        administrator=True)
    token = api("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword" + key,
                {"email": BOB, "password": PASSWORD, "returnSecureToken": True})["idToken"]
    info = api("/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start" + key, {"idToken": token, "totpEnrollmentInfo": {}})
    secret = info["totpSessionInfo"]
    api("/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:finalize" + key, {
        "idToken": token, "displayName": "Bob's phone",
        "totpVerificationInfo": {"sessionInfo": secret["sessionInfo"], "verificationCode": pyotp.TOTP(secret["sharedSecretKey"]).now()}})
    return signed_up["localId"], pyotp.TOTP(secret["sharedSecretKey"])


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(30)
wait = WebDriverWait(driver, 20)


def shoot(name):
    """The page at a desktop width and a phone width; whether the phone view scrolls sideways."""
    page = {"title": driver.title, "path": driver.current_url.removeprefix(BASE)}
    for label, (width, height) in [("desktop", (1280, 900)), ("phone", (390, 844))]:
        driver.set_window_size(width, height)
        total = driver.execute_script("return Math.max(document.body.scrollHeight, 600)")
        driver.set_window_size(width, min(total + 140, 6000))
        driver.save_screenshot(os.path.join(SHOTS, f"{name}-{label}.png"))
        page[f"{label}Overflow"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
    driver.set_window_size(1280, 900)
    page["csp"] = driver.execute_script("return document.querySelectorAll('script:not([src]), [style]').length")
    page["unlabelled"] = driver.execute_script(
        "return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))"
        ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).length")
    results["pages"][name] = page


def text(selector):
    return driver.find_element(By.CSS_SELECTOR, selector).text


def fill(fields):
    for name, value in fields.items():
        element = driver.find_element(By.NAME, name)
        element.clear()
        element.send_keys(value)


def click(element):
    """Clicks what leads to another page, and waits until the browser has left this one and
    loaded the next. Mid-navigation the driver may answer any error about the old page; only
    its element going stale says the browser left it."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()

    def left(_):
        try:
            page.tag_name
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException:
            return False

    wait.until(left)
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def submit(form_action):
    click(driver.find_element(By.CSS_SELECTOR, f"form[action='{form_action}'] button[type=submit]"))


def submit_second_factor(kind):
    click(driver.find_element(By.CSS_SELECTOR, f"form input[value={kind}]").find_element(By.XPATH, "..").find_element(By.TAG_NAME, "button"))


def notice():
    found = driver.find_elements(By.CSS_SELECTOR, ".notice")
    return found[0].text if found else None


def error():
    found = driver.find_elements(By.CSS_SELECTOR, ".error:not([hidden])")
    return found[0].text if found else None


def sign_in(email, password=PASSWORD):
    driver.get(BASE + "/account/sign-in")
    fill({"email": email, "password": password})
    submit("/account/sign-in")


def sign_out():
    submit("/account/sign-out")


try:
    bob, bob_totp = bob_with_a_factor()
    results["bob"] = bob

    # Sign up; the address is verified from the email the emulator keeps.
    driver.get(BASE + "/account/sign-up")
    shoot("sign-up")
    fill({"email": ADMIN, "password": PASSWORD})
    submit("/account/sign-up")
    results["afterSignUp"] = driver.current_url.removeprefix(BASE)
    shoot("account-new")
    submit("/account/verify-email")
    results["verificationNotice"] = notice()
    driver.get(f"{BASE}/__/auth/action?mode=verifyEmail&oobCode={oob_code(ADMIN, 'VERIFY_EMAIL')}")
    results["verified"] = notice()
    shoot("email-verified")

    # An authenticator app: the key from the page, and the QR code's as zbarimg reads it.
    driver.get(BASE + "/account/totp")
    shoot("enroll-totp")
    key = text("#shared-key")
    qr = os.path.join(SHOTS, "totp-qr.png")
    driver.find_element(By.CSS_SELECTOR, ".qr svg").screenshot(qr)
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", qr], capture_output=True, text=True)
    results["qrURI"] = decoded.stdout.strip()
    results["key"] = key
    totp = pyotp.TOTP(key)
    fill({"code": totp.now(), "name": "Ada's phone"})
    submit("/account/totp")
    results["enrolled"] = notice()
    results["factorRows"] = [row.find_element(By.NAME, "name").get_attribute("value") for row in driver.find_elements(By.CSS_SELECTOR, "#factors-heading + table tbody tr")]
    fill({"name": "Ada's Pixel"})
    submit("/account/factors/rename")
    results["renamed"] = notice()
    results["factorNameAfterRename"] = driver.find_element(By.ID, "factor-0").get_attribute("value")

    # Recovery codes, shown once.
    submit("/account/recovery-codes")
    codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
    results["recoveryCodes"] = len(codes)
    shoot("recovery-codes")
    click(driver.find_element(By.LINK_TEXT, "I have saved them"))

    sign_out()
    results["afterSignOut"] = driver.current_url.removeprefix(BASE)

    # The second factor: the next step's code (the enrollment's step is spent).
    sign_in(ADMIN)
    results["secondFactorPath"] = driver.current_url.removeprefix(BASE)
    shoot("second-factor")
    fill({"code": "000000"})
    submit_second_factor("totp")
    results["wrongCode"] = error()
    fill({"code": totp.at(time.time() + 30)})
    submit_second_factor("totp")
    results["signedInWithTOTP"] = driver.current_url.removeprefix(BASE)

    # A passkey, from the DevTools virtual authenticator: on an account with a second factor,
    # only a sign-in that completed one may add it.
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    authenticator = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True, "isUserVerified": True}})
    driver.find_element(By.ID, "passkey-add").click()
    wait.until(lambda d: "done=passkeyAdded" in d.current_url or error())
    results["passkeyAdded"] = notice() or error()
    results["passkeyNames"] = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "#passkeys-heading ~ ul input[name=name]")]
    shoot("account")
    sign_out()

    # A recovery code instead.
    sign_in(ADMIN)
    driver.find_element(By.ID, "recovery").send_keys(codes[0])
    submit_second_factor("recovery")
    results["signedInWithRecoveryCode"] = driver.current_url.removeprefix(BASE)
    results["recoveryCodesLeft"] = text("#recovery-heading + p strong")
    sign_out()

    # The passkey alone.
    driver.get(BASE + "/account/sign-in")
    shoot("sign-in")
    driver.find_element(By.ID, "passkey-sign-in").click()
    wait.until(lambda d: d.current_url.rstrip("/").endswith("/account") or error())
    results["signedInWithPasskey"] = driver.current_url.removeprefix(BASE)
    results["consoleWithoutSecondFactor"] = None
    driver.get(BASE + "/admin")
    results["consoleWithoutSecondFactor"] = driver.title
    sign_out()

    # Bob adds a security key as a second factor (an authenticator of its own, so the browser
    # does not offer Ada's passkey) and signs in with it.
    driver.execute_cdp_cmd("WebAuthn.removeVirtualAuthenticator", authenticator)
    driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "usb", "hasResidentKey": False, "hasUserVerification": True, "isUserVerified": True}})
    sign_in(BOB)
    fill({"code": bob_totp.at(time.time() + 30)})
    submit_second_factor("totp")
    driver.find_element(By.ID, "security-key-add").click()
    wait.until(lambda d: "done=securityKeyAdded" in d.current_url or error())
    results["securityKeyAdded"] = notice() or error()
    sign_out()
    sign_in(BOB)
    shoot("second-factor-choices")
    driver.find_element(By.CSS_SELECTOR, ".passkey-factor").click()
    wait.until(lambda d: d.current_url.rstrip("/").endswith("/account") or error())
    results["signedInWithSecurityKey"] = driver.current_url.removeprefix(BASE)
    sign_out()

    # The console, signed in with the second factor: Bob's factors reset, with a reason.
    sign_in(ADMIN)
    fill({"code": totp.at(time.time() + 60)})
    submit_second_factor("totp")
    driver.get(BASE + "/admin")
    shoot("console-users")
    fill({"q": BOB})
    submit("/admin")
    click(driver.find_element(By.LINK_TEXT, bob))
    shoot("console-user")
    results["bobFactorsBefore"] = len(driver.find_elements(By.CSS_SELECTOR, "#factors-heading ~ ul.rows li"))
    driver.find_element(By.ID, "reason-reset").send_keys("lost phone <script>alert('xss')</script>")
    submit(f"/admin/users/{bob}/reset-factors")
    results["resetNotice"] = notice()
    results["bobFactorsAfter"] = len(driver.find_elements(By.CSS_SELECTOR, "#factors-heading ~ ul.rows li"))
    driver.get(f"{BASE}/admin/audit?user={bob}")
    shoot("console-audit")
    rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in driver.find_elements(By.CSS_SELECTOR, "table.events tbody tr")]
    results["bobEvents"] = rows
    results["escapedReason"] = "&lt;script&gt;" in driver.page_source
    results["alerts"] = driver.execute_script("return typeof window.xss")

    # What the console's export says, read in the same browser session.
    driver.get(BASE + "/admin/users/" + bob)
    shoot("console-user-after")
    sign_out()

    # Carol signs in with the identity provider: the button takes the browser to the provider's
    # origin, which sends it back with a code; the cookie the return needs survives the trip.
    driver.get(BASE + "/account/sign-in")
    click(driver.find_element(By.PARTIAL_LINK_TEXT, "Continue with oidc.test"))
    wait.until(lambda d: d.current_url.removeprefix(BASE).startswith("/account") and "/providers/" not in d.current_url)
    results["providerSignIn"] = driver.current_url.removeprefix(BASE)
    results["providerEmail"] = text("main p strong")
    results["providerCookieAfter"] = str(driver.get_cookie("otpkit-provider"))

    # The same pages for a browser that asks for Polish: longer words, still one column on a phone.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}})
    driver.get(BASE + "/account")
    shoot("account-pl")
    results["polishLanguage"] = driver.execute_script("return document.documentElement.lang")
    results["polishHeading"] = text("h1")
    sign_out()
    driver.get(BASE + "/account/sign-in")
    shoot("sign-in-pl")
    results["polishProviderButton"] = driver.find_element(By.PARTIAL_LINK_TEXT, "oidc.test").text
except Exception:
    # What the browser showed when a step failed, for whoever reads the failure.
    driver.save_screenshot(os.path.join(SHOTS, "failure.png"))
    print(f"failed at {driver.current_url}: {driver.find_element(By.TAG_NAME, 'main').text[:800]}\n{json.dumps(results)}", file=sys.stderr)
    raise
finally:
    driver.quit()
json.dump(results, sys.stdout)
print(flush=True)
