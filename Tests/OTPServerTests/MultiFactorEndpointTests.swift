import Foundation
import OTPServer
import OTPTestUtilities
import Testing

/// The v2 multi-factor endpoints, in process (the SMS command through the built executable), with
/// requests shaped as the iOS and JS SDKs send them (`IDENTITY-TOOLKIT.md` C.9): TOTP and phone enrollment, the pending credential
/// of a password sign-in, its second step, withdrawal, and each refusal.
@Suite struct MultiFactorEndpointTests {
    typealias Server = ServerProcess

    @Test func totpEnrollmentAndSignIn() async throws {
        try await InProcessServer.with { server in
            // A fresh password account has an unverified address, which enrollment refuses.
            let signedUp = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key", #"{"email":"una@example.com","password":"long enough"}"#)
            let unverifiedToken = try #require(signedUp.json["idToken"] as? String, "\(signedUp.body)")
            let unverified = try await server.post(Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(unverifiedToken)","totpEnrollmentInfo":{}}"#)
            #expect(unverified.errorMessage?.hasPrefix("UNVERIFIED_EMAIL : ") == true, "\(unverified.body)")

            let (uid, idToken) = try await server.verifiedUser("tina@example.com")
            #expect(try await server.mfaInfo(idToken) == nil, "no factors: mfaInfo left out")
            let info = try await server.startTOTPEnrollment(idToken)
            #expect(info["verificationCodeLength"] as? Int == 6)
            #expect(info["hashingAlgorithm"] as? String == "SHA1")
            #expect(info["periodSec"] as? Int == 30)
            let deadline = try #require(info["finalizeEnrollmentTime"] as? String)
            #expect(deadline.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(deadline)")
            let key = try #require(info["sharedSecretKey"] as? String)
            let sessionInfo = try #require(info["sessionInfo"] as? String)

            let step = server.currentStep
            let code = try TOTPCodes.code(key, step: step)
            #expect(try await TOTPCodes.oathtool(key, step: step) == code, "OTPKit and oathtool disagree on the shared secret's code")
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            let refused = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(wrong)"}}"#)
            #expect(refused.status == 400)
            #expect(refused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(refused.body)")
            #expect(try await server.mfaInfo(idToken) == nil, "a refused code enrolled nothing")

            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","displayName":"Authenticator","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(code)"}}"#
            )
            #expect(finalized.status == 200, "\(finalized.body)")
            let enrolledToken = try #require(finalized.json["idToken"] as? String)
            #expect(finalized.json["refreshToken"] is String)
            let factors = try #require(try await server.mfaInfo(enrolledToken))
            #expect(factors.count == 1)
            let enrollmentID = try #require(factors.first?["mfaEnrollmentId"] as? String)
            #expect(factors.first?["displayName"] as? String == "Authenticator")
            #expect(factors.first?["totpInfo"] is [String: Any])
            #expect(factors.first?.keys.contains("phoneInfo") == false)
            #expect((factors.first?["enrolledAt"] as? String)?.hasSuffix("Z") == true)

            // The session info was spent.
            let again = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(enrolledToken)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(code)"}}"#)
            #expect(again.errorMessage?.hasPrefix("INVALID_SESSION_INFO : ") == true, "\(again.body)")

            // The password alone no longer signs in: a pending credential and the hint.
            let (pending, hints) = try await server.pendingSignIn("tina@example.com")
            #expect(hints.count == 1)
            #expect(hints.first?["mfaEnrollmentId"] as? String == enrollmentID)
            #expect(hints.first?["totpInfo"] is [String: Any])

            let wrongSignIn = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(wrong)"}}"#
            )
            #expect(wrongSignIn.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(wrongSignIn.body)")

            // The enrollment accepted `step`; the next step's code signs in (within the window).
            let next = try TOTPCodes.code(key, step: step + 1)
            let signedIn = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(next)"}}"#
            )
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let token = try #require(signedIn.json["idToken"] as? String)
            let refreshToken = try #require(signedIn.json["refreshToken"] as? String)
            let claims = try await server.verifiedClaims(token)
            #expect(claims.subject == uid)
            #expect(claims.firebase.signInProvider == "password")
            #expect(claims.firebase.signInSecondFactor == "totp")
            #expect(claims.firebase.secondFactorIdentifier == enrollmentID)
            #expect(try await server.mfaInfo(token)?.count == 1)

            // A refreshed token keeps the second factor.
            let refreshed = try await server.post(Server.tokenPath, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            let refreshedClaims = try await server.verifiedClaims(try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)"))
            #expect(refreshedClaims.firebase.signInSecondFactor == "totp")
            #expect(refreshedClaims.firebase.secondFactorIdentifier == enrollmentID)

            // The pending credential was spent.
            let reused = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(try TOTPCodes.code(key, step: step + 2))"}}"#
            )
            #expect(reused.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL : ") == true, "\(reused.body)")

            // A new sign-in: the used code is refused as a replay, a later one accepted, at the bare path.
            let (second, _) = try await server.pendingSignIn("tina@example.com")
            let replayed = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(second)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(next)"}}"#)
            #expect(replayed.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(replayed.body)")
            let later = try await server.post(
                Server.v2("mfaSignIn:finalize", bare: true),
                #"{"mfaPendingCredential":"\#(second)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(try TOTPCodes.code(key, step: step + 2))"}}"#
            )
            #expect(later.status == 200, "\(later.body)")
        }
    }

    @Test func phoneEnrollmentAndSignInUnderTheEmulator() async throws {
        try await InProcessServer.with { server in
            let (_, idToken) = try await server.verifiedUser("pam@example.com")
            // JS's request: the number and the verifier fields, which are ignored.
            let started = try await server.post(
                Server.v2("mfaEnrollment:start"),
                #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+12015550123","recaptchaToken":"mock","clientType":"CLIENT_TYPE_WEB","captchaResponse":"NO_RECAPTCHA"}}"#
            )
            #expect(started.status == 200, "\(started.body)")
            let sessionInfo = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
            let (code, number) = try await server.sentCode(sessionInfo)
            #expect(number == "+12015550123")
            #expect(code.wholeMatch(of: /\d{6}/) != nil)

            let wrong = code == "000000" ? "111111" : "000000"
            let refused = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(wrong)"}}"#)
            #expect(refused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(refused.body)")
            #expect(try await server.mfaInfo(idToken) == nil)

            // JS sends displayName null.
            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","displayName":null,"phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#)
            #expect(finalized.status == 200, "\(finalized.body)")
            let enrolledToken = try #require(finalized.json["idToken"] as? String)
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            #expect(!listed.body.contains(sessionInfo), "a used code is no longer pending")
            let factors = try #require(try await server.mfaInfo(enrolledToken))
            #expect(factors.first?["phoneInfo"] as? String == "+12015550123", "the owner sees the whole number")
            #expect(factors.first?.keys.contains("displayName") == false)
            let enrollmentID = try #require(factors.first?["mfaEnrollmentId"] as? String)

            let (pending, hints) = try await server.pendingSignIn("pam@example.com")
            let masked = try #require(hints.first?["phoneInfo"] as? String)
            #expect(masked != "+12015550123" && masked.hasSuffix("0123") && masked.contains("*"), "\(masked)")

            // iOS's start: the masked hint as the number, which the server ignores.
            let signInStart = try await server.post(
                Server.v2("mfaSignIn:start"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","phoneSignInInfo":{"phoneNumber":"\#(masked)"}}"#)
            #expect(signInStart.status == 200, "\(signInStart.body)")
            let signInSession = try #require((signInStart.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String)
            let (signInCode, signInNumber) = try await server.sentCode(signInSession)
            #expect(signInNumber == "+12015550123", "the code goes to the enrolled number")

            // iOS's finalize carries no enrollment id.
            let signedIn = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","phoneVerificationInfo":{"sessionInfo":"\#(signInSession)","code":"\#(signInCode)"}}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let claims = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String))
            #expect(claims.firebase.signInSecondFactor == "phone")
            #expect(claims.firebase.secondFactorIdentifier == enrollmentID)

            // The code again, on a new sign-in: bound to the spent one, so refused.
            let (another, _) = try await server.pendingSignIn("pam@example.com")
            let replayed = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(another)","phoneVerificationInfo":{"sessionInfo":"\#(signInSession)","code":"\#(signInCode)"}}"#)
            #expect(replayed.errorMessage?.hasPrefix("INVALID_SESSION_INFO : ") == true, "\(replayed.body)")
        }
    }

    @Test func bothFactorsEachChosenThenWithdrawn() async throws {
        try await InProcessServer.with { server in
            let (_, idToken) = try await server.verifiedUser("bo@example.com")
            let info = try await server.startTOTPEnrollment(idToken)
            let key = try #require(info["sharedSecretKey"] as? String)
            let step = server.currentStep
            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","displayName":"App","totpVerificationInfo":{"sessionInfo":"\#(info["sessionInfo"] as? String ?? "")","verificationCode":"\#(try TOTPCodes.code(key, step: step))"}}"#
            )
            let afterTOTP = try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
            let afterPhone = try await server.enrollPhone(afterTOTP, number: "+12015550188")
            let factors = try #require(try await server.mfaInfo(afterPhone))
            #expect(factors.count == 2)
            let totpID = try #require(factors.first { $0["totpInfo"] != nil }?["mfaEnrollmentId"] as? String)
            let phoneID = try #require(factors.first { $0["phoneInfo"] != nil }?["mfaEnrollmentId"] as? String)

            // The TOTP factor chosen.
            let (first, hints) = try await server.pendingSignIn("bo@example.com")
            #expect(Set(hints.compactMap { $0["mfaEnrollmentId"] as? String }) == [totpID, phoneID])
            let totpStart = try await server.post(
                Server.v2("mfaSignIn:start"), #"{"mfaPendingCredential":"\#(first)","mfaEnrollmentId":"\#(totpID)"}"#)
            #expect(totpStart.errorMessage?.hasPrefix("INVALID_ARGUMENT : ") == true, "TOTP has no start: \(totpStart.body)")
            let byTOTP = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(first)","totpVerificationInfo":{"mfaEnrollmentId":"\#(totpID)","verificationCode":"\#(try TOTPCodes.code(key, step: step + 1))"}}"#
            )
            let totpClaims = try await server.verifiedClaims(try #require(byTOTP.json["idToken"] as? String, "\(byTOTP.body)"))
            #expect(totpClaims.firebase.signInSecondFactor == "totp")
            #expect(totpClaims.firebase.secondFactorIdentifier == totpID)

            // The phone factor chosen.
            let (second, _) = try await server.pendingSignIn("bo@example.com")
            let phoneStart = try await server.post(
                Server.v2("mfaSignIn:start"), #"{"mfaPendingCredential":"\#(second)","mfaEnrollmentId":"\#(phoneID)","phoneSignInInfo":{}}"#)
            let phoneSession = try #require((phoneStart.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(phoneStart.body)")
            let (code, _) = try await server.sentCode(phoneSession)
            let byPhone = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(second)","phoneVerificationInfo":{"sessionInfo":"\#(phoneSession)","code":"\#(code)"}}"#)
            let phoneToken = try #require(byPhone.json["idToken"] as? String, "\(byPhone.body)")
            let phoneClaims = try await server.verifiedClaims(phoneToken)
            #expect(phoneClaims.firebase.signInSecondFactor == "phone")
            #expect(phoneClaims.firebase.secondFactorIdentifier == phoneID)

            // Withdraw: an unknown id, then the TOTP factor from the phone session (tokens back).
            let missing = try await server.post(Server.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(phoneToken)"}"#)
            #expect(missing.errorMessage?.hasPrefix("MISSING_MFA_ENROLLMENT_ID : ") == true, "\(missing.body)")
            let unknown = try await server.post(
                Server.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(phoneToken)","mfaEnrollmentId":"nosuchfactor"}"#)
            #expect(unknown.errorMessage?.hasPrefix("MFA_ENROLLMENT_NOT_FOUND : ") == true, "\(unknown.body)")
            let withdrawn = try await server.post(
                Server.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(phoneToken)","mfaEnrollmentId":"\#(totpID)"}"#)
            #expect(withdrawn.status == 200, "\(withdrawn.body)")
            let afterWithdraw = try #require(withdrawn.json["idToken"] as? String)
            #expect(withdrawn.json["refreshToken"] is String)
            #expect(try await server.mfaInfo(afterWithdraw)?.compactMap { $0["mfaEnrollmentId"] as? String } == [phoneID])

            // Withdrawing the factor this session signed in with ends the session.
            let own = try await server.post(
                Server.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(afterWithdraw)","mfaEnrollmentId":"\#(phoneID)"}"#)
            #expect(own.errorMessage?.hasPrefix("INVALID_ID_TOKEN : ") == true, "\(own.body)")
            let ended = try await server.post(Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(afterWithdraw)","totpEnrollmentInfo":{}}"#)
            #expect(ended.errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true, "\(ended.body)")
            // No factor left: the password signs in with tokens again.
            let plain = try await server.post(Server.signInPath, #"{"email":"bo@example.com","password":"long enough"}"#)
            #expect(plain.json["idToken"] is String, "\(plain.body)")
            #expect(plain.json.keys.contains("mfaPendingCredential") == false)
        }
    }

    @Test func refusalsAreTheDocumentedErrorsAndWriteNothing() async throws {
        try await InProcessServer.with { server in
            let (uid, idToken) = try await server.verifiedUser("rex@example.com")
            let info = try await server.startTOTPEnrollment(idToken)
            let key = try #require(info["sharedSecretKey"] as? String)
            let step = server.currentStep
            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(info["sessionInfo"] as? String ?? "")","verificationCode":"\#(try TOTPCodes.code(key, step: step))"}}"#
            )
            let enrolledToken = try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
            let enrollmentID = try #require(try await server.mfaInfo(enrolledToken)?.first?["mfaEnrollmentId"] as? String)
            let (pending, _) = try await server.pendingSignIn("rex@example.com")

            // A forged credential: another user's id or a later expiry under the same MAC, a changed
            // MAC, not ours at all. The credential is otpkp2.<id>.<uid>.<first factor>.<created>.<expires>.<MAC>.
            let parts = pending.split(separator: ".").map(String.init)
            try #require(parts.count == 7 && parts[0] == "otpkp2", "\(pending)")
            func replacing(_ index: Int, with part: String) -> String {
                var changed = parts
                changed[index] = part
                return changed.joined(separator: ".")
            }
            let otherUser = replacing(2, with: ClientEndpointTests.base64URLEncode("someone-else"))
            let laterExpiry = replacing(5, with: ClientEndpointTests.base64URLEncode("9999999999"))
            let changedMAC = replacing(6, with: String(parts[6].reversed()))
            let code = try TOTPCodes.code(key, step: step + 1)
            for forged in [otherUser, laterExpiry, changedMAC, "not-a-credential", pending + "x", idToken] {
                let refused = try await server.post(
                    Server.v2("mfaSignIn:finalize"),
                    #"{"mfaPendingCredential":"\#(forged)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#
                )
                #expect(refused.status == 400)
                #expect(refused.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL : ") == true, "\(refused.body)")
            }
            let cases: [(String, String, String)] = [
                (
                    "mfaSignIn:finalize", #"{"mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#,
                    "MISSING_CREDENTIAL"
                ),
                (
                    "mfaSignIn:finalize", #"{"mfaPendingCredential":"\#(pending)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#,
                    "MISSING_MFA_ENROLLMENT_ID"
                ),
                (
                    "mfaSignIn:finalize", #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{}}"#,
                    "MISSING_CODE"
                ),
                ("mfaSignIn:finalize", #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)"}"#, "INVALID_ARGUMENT"),
                ("mfaSignIn:finalize", #"{"mfaPendingCredential":"\#(pending)","totpVerificationInfo":"123456"}"#, "INVALID_ARGUMENT"),
                ("mfaSignIn:finalize", #"{"mfaPendingCredential":42,"totpVerificationInfo":{}}"#, "INVALID_ARGUMENT"),
                ("mfaSignIn:finalize", #"{"mfaPendingCredential":"\#(pending)","#, "INVALID_ARGUMENT"),
                (
                    "mfaSignIn:finalize",
                    #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"nosuchfactor","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#,
                    "MFA_ENROLLMENT_NOT_FOUND"
                ),
                ("mfaSignIn:start", #"{"mfaEnrollmentId":"\#(enrollmentID)"}"#, "MISSING_MFA_PENDING_CREDENTIAL"),
                ("mfaSignIn:start", #"{"mfaPendingCredential":"\#(pending)"}"#, "MISSING_MFA_ENROLLMENT_ID"),
                ("mfaSignIn:start", #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"nosuchfactor"}"#, "MFA_ENROLLMENT_NOT_FOUND"),
                ("mfaEnrollment:start", #"{"totpEnrollmentInfo":{}}"#, "MISSING_ID_TOKEN"),
                ("mfaEnrollment:start", #"{"idToken":"forged","totpEnrollmentInfo":{}}"#, "INVALID_ID_TOKEN"),
                ("mfaEnrollment:start", #"{"idToken":"\#(enrolledToken)"}"#, "INVALID_ARGUMENT"),
                ("mfaEnrollment:start", #"{"idToken":"\#(enrolledToken)","totpEnrollmentInfo":[]}"#, "INVALID_ARGUMENT"),
                ("mfaEnrollment:start", #"{"idToken":"\#(enrolledToken)","phoneEnrollmentInfo":{}}"#, "INVALID_PHONE_NUMBER"),
                ("mfaEnrollment:start", #"{"idToken":"\#(enrolledToken)","phoneEnrollmentInfo":{"phoneNumber":"12"}}"#, "INVALID_PHONE_NUMBER"),
                (
                    "mfaEnrollment:finalize", #"{"idToken":"\#(enrolledToken)","totpVerificationInfo":{"verificationCode":"123456"}}"#,
                    "MISSING_SESSION_INFO"
                ),
                (
                    "mfaEnrollment:finalize",
                    #"{"idToken":"\#(enrolledToken)","totpVerificationInfo":{"sessionInfo":"nosuchsession","verificationCode":"123456"}}"#,
                    "INVALID_SESSION_INFO"
                ),
                (
                    "mfaEnrollment:finalize",
                    #"{"idToken":"\#(enrolledToken)","phoneVerificationInfo":{"sessionInfo":"nosuchsession","code":"123456"}}"#,
                    "INVALID_SESSION_INFO"
                ),
                ("mfaEnrollment:withdraw", #"{"idToken":"\#(enrolledToken)","mfaEnrollmentId":7}"#, "INVALID_ARGUMENT"),
            ]
            for (endpoint, body, code) in cases {
                let refused = try await server.post(Server.v2(endpoint), body)
                #expect(refused.status == 400, "\(endpoint) \(body): \(refused.body)")
                #expect(refused.errorMessage?.hasPrefix(code + " : ") == true, "\(endpoint) \(body): \(refused.body)")
            }
            // Nothing was written: one factor still, and the credential still completes the sign-in.
            #expect(try await server.mfaInfo(enrolledToken)?.count == 1)
            let signedIn = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#
            )
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String)).subject == uid)
        }
    }

    @Test func recoveryCodesCompleteASignInOnce() async throws {
        try await InProcessServer.with { server in
            let (_, idToken) = try await server.verifiedUser("ray@example.com")
            let info = try await server.startTOTPEnrollment(idToken)
            let key = try #require(info["sharedSecretKey"] as? String)
            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(info["sessionInfo"] as? String ?? "")","verificationCode":"\#(try TOTPCodes.code(key, step: server.currentStep))"}}"#
            )
            let enrolledToken = try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
            let generated = try await server.post(Server.v2("mfaRecoveryCodes:generate"), #"{"idToken":"\#(enrolledToken)"}"#)
            let codes = try #require(generated.json["recoveryCodes"] as? [String], "\(generated.body)")
            #expect(codes.count == 10)

            let (pending, _) = try await server.pendingSignIn("ray@example.com")
            let signedIn = try await server.post(
                Server.v2("mfaSignIn:finalize"), #"{"mfaPendingCredential":"\#(pending)","recoveryCodeVerificationInfo":{"code":"\#(codes[0])"}}"#)
            let claims = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)"))
            #expect(claims.firebase.signInSecondFactor == "recovery")

            let (again, _) = try await server.pendingSignIn("ray@example.com")
            let reused = try await server.post(
                Server.v2("mfaSignIn:finalize"), #"{"mfaPendingCredential":"\#(again)","recoveryCodeVerificationInfo":{"code":"\#(codes[0])"}}"#)
            #expect(reused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "a recovery code works once: \(reused.body)")
            let missing = try await server.post(Server.v2("mfaRecoveryCodes:generate"), "{}")
            #expect(missing.errorMessage?.hasPrefix("MISSING_ID_TOKEN : ") == true, "\(missing.body)")
        }
    }

    @Test func phoneCodesGoThroughTheSMSCommand() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The script plays the SMS gateway: it appends its arguments, one per line, to a file, then
        // what it reads from standard input to another.
        let outbox = directory.file("sms.txt")
        let input = directory.file("sms-input.txt")
        let script = directory.file("sms.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(ProcessRunner.shellQuoted(outbox))\ncat >> \(ProcessRunner.shellQuoted(input))\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        // A verified account needs the emulator's admin call; the real server then finds it in the same database.
        var idToken = ""
        try await ServerProcess.with(in: directory) { server in idToken = try await server.verifiedUser("sal@example.com").idToken }
        try await ServerProcess.with(arguments: ["--api-key", "demo-key", "--sms-command", script], in: directory) { server in
            let started = try await server.post(
                Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+12015550177"}}"#)
            let sessionInfo = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
            // The number as the one argument; the message, code included, on standard input only.
            #expect(try String(contentsOfFile: outbox, encoding: .utf8) == "+12015550177\n")
            let sent = try String(contentsOfFile: input, encoding: .utf8)
            let code = try #require(sent.firstMatch(of: /([0-9]{6}) is your OTPKit verification code\./)?.output.1, "\(sent)")
            let finalized = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#)
            #expect(finalized.status == 200, "\(finalized.body)")
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            #expect(listed.status == 404)
        }
    }

    @Test func withoutTheEmulatorNoCodeListAndNoPhoneFactors() async throws {
        try await InProcessServer.with(apiKeys: ["demo-key"]) { server in
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            #expect(listed.status == 404, "\(listed.body)")
            let created = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key", #"{"email":"nia@example.com","password":"long enough"}"#)
            let idToken = try #require(created.json["idToken"] as? String, "\(created.body)")
            // No SMS sender configured: phone factors are off (checked before the address).
            let phone = try await server.post(
                Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+12015550123"}}"#)
            #expect(phone.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "\(phone.body)")
            let noKey = try await server.post("/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start", "{}")
            #expect(noKey.status == 403, "\(noKey.body)")
        }
    }
}
