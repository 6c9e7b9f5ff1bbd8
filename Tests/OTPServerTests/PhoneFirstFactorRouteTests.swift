import Foundation
import Testing

/// The phone number as a first factor through the routes, as the JS SDK (v1 paths) and iOS (v3
/// names) send it (`IDENTITY-TOOLKIT.md` C.8): a code sent, then a sign-in or a link with it.
@Suite struct PhoneFirstFactorRouteTests {
    static let send = "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=demo-key"
    static let signIn = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=demo-key"
    static let sendV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/sendVerificationCode?key=demo-key"
    static let signInV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPhoneNumber?key=demo-key"

    static func sendCode(_ server: InProcessServer, to number: String, path: String = send) async throws -> (sessionInfo: String, code: String) {
        let sent = try await server.post(path, #"{"phoneNumber":"\#(number)","recaptchaToken":"ignored"}"#)
        let sessionInfo = try #require(sent.json["sessionInfo"] as? String, "\(sent.body)")
        let (code, listed) = try await server.sentCode(sessionInfo)
        #expect(listed == number)
        return (sessionInfo, code)
    }

    @Test func aNumberSignsUpThenInAndItsTokensCarryIt() async throws {
        try await InProcessServer.with { server in
            let (sessionInfo, code) = try await Self.sendCode(server, to: "+12015550123")
            let wrong = try await server.post(Self.signIn, #"{"sessionInfo":"\#(sessionInfo)","code":"000000"}"#)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_CODE") == true, "\(wrong.body)")
            let first = try await server.post(Self.signIn, #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json["isNewUser"] as? Bool == true)
            #expect(first.json["phoneNumber"] as? String == "+12015550123")
            let uid = try #require(first.json["localId"] as? String)
            let claims = try await server.verifiedClaims(try #require(first.json["idToken"] as? String))
            #expect(claims.phoneNumber == "+12015550123")
            #expect(claims.firebase.identities == ["phone": ["+12015550123"]])
            #expect(claims.firebase.signInProvider == "phone")
            #expect((first.json["refreshToken"] as? String)?.isEmpty == false)

            let replayed = try await server.post(Self.signIn, #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
            #expect(replayed.status == 400, "a code completes once: \(replayed.body)")
            #expect(replayed.json["idToken"] == nil)

            // iOS's names, a national-format-free international number with spaces.
            let (again, againCode) = try await Self.sendCode(server, to: "+12015550123", path: Self.sendV3)
            let second = try await server.post(Self.signInV3, #"{"sessionInfo":"\#(again)","code":"\#(againCode)"}"#)
            #expect(second.status == 200, "\(second.body)")
            #expect(second.json["isNewUser"] as? Bool == false)
            #expect(second.json["localId"] as? String == uid, "the same account")
        }
    }

    @Test func aSignedInUserLinksANumberWhichThenSignsInToThem() async throws {
        try await InProcessServer.with { server in
            let (uid, idToken) = try await server.verifiedUser("pia@example.com")
            let (sessionInfo, code) = try await Self.sendCode(server, to: "+442079460958")
            let linked = try await server.post(
                Self.signIn, #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)","idToken":"\#(idToken)","operation":"LINK"}"#)
            #expect(linked.status == 200, "\(linked.body)")
            #expect(linked.json["localId"] as? String == uid)
            let linkedToken = try #require(linked.json["idToken"] as? String)
            #expect(try await server.providerIDs(linkedToken) == ["password", "phone"])

            let (later, laterCode) = try await Self.sendCode(server, to: "+442079460958")
            let signedIn = try await server.post(Self.signIn, #"{"sessionInfo":"\#(later)","code":"\#(laterCode)"}"#)
            #expect(signedIn.json["localId"] as? String == uid, "\(signedIn.body)")
            let claims = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String))
            #expect(claims.firebase.identities == ["email": ["pia@example.com"], "phone": ["+442079460958"]])
        }
    }

    @Test func badRequestsAreRefusedWithFirebasesCodesAndSendNothing() async throws {
        try await InProcessServer.with { server in
            let noNumber = try await server.post(Self.send, "{}")
            #expect(noNumber.errorMessage?.hasPrefix("MISSING_PHONE_NUMBER") == true, "\(noNumber.body)")
            let badNumber = try await server.post(Self.send, #"{"phoneNumber":"not a number"}"#)
            #expect(badNumber.errorMessage?.hasPrefix("INVALID_PHONE_NUMBER") == true, "\(badNumber.body)")
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            #expect((listed.json["verificationCodes"] as? [Any])?.isEmpty == true, "\(listed.body)")

            let noSession = try await server.post(Self.signIn, #"{"code":"123456"}"#)
            #expect(noSession.errorMessage?.hasPrefix("MISSING_SESSION_INFO") == true, "\(noSession.body)")
            let noCode = try await server.post(Self.signIn, #"{"sessionInfo":"abc"}"#)
            #expect(noCode.errorMessage?.hasPrefix("MISSING_CODE") == true, "\(noCode.body)")
            let unknown = try await server.post(Self.signIn, #"{"sessionInfo":"abc","code":"123456"}"#)
            #expect(unknown.status == 400, "\(unknown.body)")
            #expect(unknown.json["idToken"] == nil)
            let proof = try await server.post(Self.signIn, #"{"temporaryProof":"x","phoneNumber":"+12015550123"}"#)
            #expect(proof.errorMessage?.hasPrefix("INVALID_TEMPORARY_PROOF") == true, "\(proof.body)")
        }
    }
}
