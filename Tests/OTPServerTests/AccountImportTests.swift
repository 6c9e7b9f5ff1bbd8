import Foundation
import OTPAuthentication
import OTPTestUtilities
import Testing

/// `projects/{project}:accounts:batchCreate` (firebase-admin's `import_users`): users with
/// `STANDARD_SCRYPT` password hashes made by CPython's scrypt sign in with their passwords, and
/// every account the import cannot make is named with its reason while the others are made.
@Suite struct AccountImportTests {
    static let path = "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:batchCreate"
    static let owner = [("Authorization", "Bearer owner")]

    /// Hashes `sys.argv[2]` with hashlib's scrypt at N = 2^14 (below this server's cost, so the
    /// first sign-in re-hashes it), imports it with firebase-admin as uid `imported-1` beside an
    /// account without a password, and reports what `import_users` answered.
    static let importScript = """
        import base64, hashlib, os
        password = sys.argv[2].encode()
        salt = os.urandom(16)
        key = hashlib.scrypt(password, salt=salt, n=16384, r=8, p=1, dklen=32, maxmem=2**26)
        users = [
            auth.ImportUserRecord("imported-1", email="imported@example.com", email_verified=True, display_name="Imported",
                                  password_hash=key, password_salt=salt, custom_claims={"plan": "pro"},
                                  provider_data=[auth.UserProvider(uid="g-123", provider_id="google.com", email="imported@example.com")]),
            auth.ImportUserRecord("imported-2", email="nopassword@example.com"),
        ]
        hash_alg = auth.UserImportHash.standard_scrypt(memory_cost=16384, parallelization=1, block_size=8, derived_key_length=32)
        result = auth.import_users(users, hash_alg=hash_alg)
        print(json.dumps({"success": result.success_count, "failure": result.failure_count,
                          "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test func firebaseAdminImportsUsersWhoThenSignInWithTheirPasswords() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let imported = try await server.firebaseAdmin(Self.importScript, ["correct horse battery"])
            #expect(imported["success"] as? Int == 2, "\(imported)")
            #expect(imported["failure"] as? Int == 0, "\(imported)")

            let wrong = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"imported@example.com","password":"not it","returnSecureToken":true}"#)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(wrong.body)")
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"imported@example.com","password":"correct horse battery","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["localId"] as? String == "imported-1")
            // Re-hashed at this server's cost while the password was at hand.
            let details = try #require(try await server.service.administration.accountDetails(id: "imported-1"))
            #expect(details.account.passwordHash?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true, "\(details.account.passwordHash ?? "none")")
            #expect(details.account.customAttributes == #"{"plan": "pro"}"# || details.account.customAttributes == #"{"plan":"pro"}"#)
            #expect(details.providerData.map(\.providerID).sorted() == ["google.com", "password"])
            let got = try await server.firebaseAdmin(
                #"u = auth.get_user("imported-1"); print(json.dumps({"name": u.display_name, "verified": u.email_verified, "claims": u.custom_claims}))"#
            )
            #expect(got["name"] as? String == "Imported")
            #expect(got["verified"] as? Bool == true)
            #expect((got["claims"] as? [String: Any])?["plan"] as? String == "pro")
        }
    }

    /// Imports, with firebase-admin, the user of firebase/scrypt's README (its password
    /// `user1password`) under the project parameters of that README.
    static let firebaseScriptImport = """
        import base64
        user = auth.ImportUserRecord(
            "fb-1", email="fb@example.com", email_verified=True,
            password_hash=base64.b64decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
            password_salt=base64.b64decode("42xEC+ixf3L2lw=="))
        hash_alg = auth.UserImportHash.scrypt(
            key=base64.b64decode(sys.argv[2]), salt_separator=base64.b64decode("Bw=="), rounds=8, memory_cost=14)
        result = auth.import_users([user], hash_alg=hash_alg)
        print(json.dumps({"success": result.success_count, "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test func firebaseHashesOfAConfiguredProjectSignInAndAreReHashed() async throws {
        var configuration = InProcessServer.configuration
        configuration.passwords.firebaseHashConfigs = [try FirebaseHashConfig(parsing: FirebaseHashConfigExample.consoleText)]
        try await InProcessServer.with(configuration: configuration, signingAlgorithm: .rs256, live: true) { server in
            let imported = try await server.firebaseAdmin(Self.firebaseScriptImport, [FirebaseHashConfigExample.signerKey])
            #expect(imported["success"] as? Int == 1, "\(imported)")
            let wrong = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"fb@example.com","password":"hunter2","returnSecureToken":true}"#)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(wrong.body)")
            #expect(try await server.service.administration.accountDetails(id: "fb-1")?.account.passwordHash?.hasPrefix("$firebase-scrypt$") == true)
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"fb@example.com","password":"user1password","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            // Re-hashed in OTPKit's form: the project's key is not needed for this user again.
            #expect(try await server.service.administration.accountDetails(id: "fb-1")?.account.passwordHash?.hasPrefix("$scrypt$") == true)
            let again = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"fb@example.com","password":"user1password","returnSecureToken":true}"#)
            #expect(again.status == 200, "\(again.body)")
        }
        // Without the project's parameters the import is refused whole, saying how to give them.
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let refused = try await server.firebaseAdmin(
                """
                try:
                    exec(sys.argv[3])
                except firebase_admin.exceptions.FirebaseError as error:
                    print(json.dumps({"error": str(error)}))
                """, [FirebaseHashConfigExample.signerKey, Self.firebaseScriptImport])
            #expect((refused["error"] as? String)?.contains("--firebase-hash-config") == true, "\(refused)")
            #expect(try await server.service.administration.accountDetails(id: "fb-1") == nil)
        }
    }

    /// A user of `fields` as JSON.
    static func user(_ fields: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys), as: UTF8.self)
    }

    @Test func eachAccountThatCannotBeMadeIsNamedAndTheOthersAreMade() async throws {
        try await InProcessServer.with { server in
            try await server.verifiedAccount("taken@example.com")
            let key = Data(repeating: 7, count: 32).base64EncodedString()
            let salt = Data(repeating: 9, count: 16).base64EncodedString()
            let users = [
                try Self.user(["localId": "ok-1", "email": "ok@example.com"]),
                try Self.user(["localId": "bad-email", "email": "not an address"]),
                try Self.user(["localId": "taken", "email": "TAKEN@example.com"]),
                try Self.user(["localId": "mfa", "email": "mfa@example.com", "mfaInfo": [["totpInfo": [String: String]()]]]),
                try Self.user(["localId": "short-key", "email": "k@example.com", "passwordHash": "AAAA", "salt": salt]),
                try Self.user(["localId": "no-email", "passwordHash": key, "salt": salt]),
                try Self.user(["localId": "claims", "email": "c@example.com", "customAttributes": #"{"iss":"x"}"#]),
                try Self.user(["localId": "ok-2", "email": "ok2@example.com", "passwordHash": key, "salt": salt]),
            ]
            let body =
                #"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1024,"blockSize":8,"parallelization":1,"dkLen":32,"users":["#
                + users.joined(separator: ",") + "]}"
            let answer = try await server.post(Self.path, body, headers: Self.owner)
            #expect(answer.status == 200, "\(answer.body)")
            let errors = try #require(answer.json["error"] as? [[String: Any]], "\(answer.body)")
            let byIndex = Dictionary(uniqueKeysWithValues: errors.map { ($0["index"] as? Int ?? -1, $0["message"] as? String ?? "") })
            #expect(byIndex.keys.sorted() == [1, 2, 3, 4, 5, 6], "\(answer.body)")
            #expect(byIndex[1] == "email is invalid")
            #expect(byIndex[2] == "email exists in other account in database")
            #expect(byIndex[3]?.contains("sharedSecretKey") == true, "a TOTP factor without its secret")
            #expect(byIndex[4]?.contains("dkLen") == true)
            #expect(byIndex[5] == "a password needs an email address")
            #expect(byIndex[6]?.contains("iss") == true)
            for made in ["ok-1", "ok-2"] { #expect(try await server.service.administration.accountDetails(id: made) != nil, "\(made)") }
            for refused in ["bad-email", "taken", "mfa", "short-key", "no-email", "claims"] {
                #expect(try await server.service.administration.accountDetails(id: refused) == nil, "\(refused) was made")
            }
            // An existing uid is never overwritten.
            let again = try await server.post(Self.path, #"{"users":[{"localId":"ok-1","email":"other@example.com"}]}"#, headers: Self.owner)
            #expect(
                (again.json["error"] as? [[String: Any]])?.first?["message"] as? String
                    == "localId belongs to an existing account - can not overwrite.")
            #expect(try await server.service.administration.accountDetails(id: "ok-1")?.account.email == "ok@example.com")
        }
    }

    @Test func requestsThatCannotBeImportedAreRefusedWhole() async throws {
        try await InProcessServer.with { server in
            let cases: [(String, String)] = [
                (#"{"users":[]}"#, "MISSING_USER_ACCOUNT"),
                (#"{"users":[{"localId":"a"},{"localId":"a"}]}"#, "DUPLICATE_LOCAL_ID : a"),
                (#"{"users":[{"localId":"a"}],"allowOverwrite":true}"#, "INVALID_ARGUMENT"),
                (#"{"users":[{"localId":"a"}],"hashAlgorithm":"SCRYPT","signerKey":"AA==","rounds":8,"memoryCost":14}"#, "INVALID_HASH_ALGORITHM"),
                (#"{"users":[{"localId":"a"}],"hashAlgorithm":"STANDARD_SCRYPT"}"#, "INVALID_ARGUMENT"),
                (#"{"users":[{"localId":"a"}],"hashAlgorithm":"PBKDF2_SHA256","rounds":0}"#, "INVALID_ARGUMENT : PBKDF2_SHA256 needs rounds"),
                (#"{"users":[{"localId":"a"}],"hashAlgorithm":"HMAC_SHA256","signerKey":"AA=="}"#, "INVALID_HASH_ALGORITHM"),
                (
                    #"{"users":["# + (0...1000).map { #"{"localId":"u\#($0)"}"# }.joined(separator: ",") + "]}",
                    "INVALID_ARGUMENT : give at most 1000"
                ),
            ]
            for (body, expected) in cases {
                let refused = try await server.post(Self.path, body, headers: Self.owner)
                #expect(refused.status == 400, "\(body.prefix(80)): \(refused.body)")
                #expect(refused.errorMessage?.hasPrefix(expected) == true, "\(body.prefix(80)): \(refused.body)")
            }
            #expect(try await server.service.administration.accountDetails(id: "a") == nil)
            let anonymous = try await server.post(Self.path, #"{"users":[{"localId":"b"}]}"#)
            #expect(anonymous.status == 401, "an administrator's call: \(anonymous.body)")
        }
    }

    @Test func firebaseToolsLegacyNamesImportAndPageTheAccounts() async throws {
        let upload = "/www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount"
        let download = "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount"
        try await InProcessServer.with { server in
            let users = #"[{"localId":"t-1","email":"t1@example.com"},{"localId":"t-2"},{"localId":"t-3","email":"t3@example.com"}]"#
            let unnamed = try await server.post(upload, #"{"users":\#(users)}"#, headers: Self.owner)
            #expect(unnamed.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true, "\(unnamed.body)")
            #expect(try await server.service.administration.accountDetails(id: "t-1") == nil)
            let anonymous = try await server.post(upload, #"{"targetProjectId":"demo-otpkit","users":\#(users)}"#)
            #expect(anonymous.status == 401, "\(anonymous.body)")
            let uploaded = try await server.post(upload, #"{"targetProjectId":"demo-otpkit","users":\#(users)}"#, headers: Self.owner)
            #expect(uploaded.status == 200, "\(uploaded.body)")
            #expect(uploaded.json["error"] == nil, "\(uploaded.body)")

            let first = try await server.post(download, #"{"targetProjectId":"demo-otpkit","maxResults":2}"#, headers: Self.owner)
            let firstUsers = try #require(first.json["users"] as? [[String: Any]], "\(first.body)")
            #expect(firstUsers.compactMap { $0["localId"] as? String } == ["t-1", "t-2"])
            let token = try #require(first.json["nextPageToken"] as? String)
            let second = try await server.post(
                download, #"{"targetProjectId":"demo-otpkit","maxResults":2,"nextPageToken":"\#(token)"}"#, headers: Self.owner)
            #expect((second.json["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } == ["t-3"], "\(second.body)")
            #expect(second.json["nextPageToken"] == nil)
            let other = try await server.post(download, #"{"targetProjectId":"other"}"#, headers: Self.owner)
            #expect(other.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true, "\(other.body)")
        }
    }

    /// The imported user `uid` (address `uid@example.com`, password `correct horse battery`):
    /// a wrong password refused, the right one signing in, and the hash then OTPKit's own.
    static func expectSignsInAndIsReHashed(_ server: InProcessServer, uid: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let wrong = try await server.post(
            ClientEndpointTests.signIn, #"{"email":"\#(uid)@example.com","password":"wrong one","returnSecureToken":true}"#)
        #expect(wrong.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(wrong.body)", sourceLocation: sourceLocation)
        let signedIn = try await server.post(
            ClientEndpointTests.signIn, #"{"email":"\#(uid)@example.com","password":"correct horse battery","returnSecureToken":true}"#)
        #expect(signedIn.status == 200, "\(signedIn.body)", sourceLocation: sourceLocation)
        let hash = try await server.service.administration.accountDetails(id: uid)?.account.passwordHash
        #expect(hash?.hasPrefix("$scrypt$") == true, "re-hashed at the first sign-in: \(hash ?? "none")", sourceLocation: sourceLocation)
    }

    /// Hashes `sys.argv[3]` with hashlib's PBKDF2-HMAC (`sys.argv[2]`: sha1 or sha256, 10,000
    /// rounds) and imports it with firebase-admin's matching `UserImportHash` as uid `sys.argv[4]`.
    static let pbkdf2Import = """
        import hashlib, os
        function, password, uid = sys.argv[2], sys.argv[3].encode(), sys.argv[4]
        salt = os.urandom(12)
        key = hashlib.pbkdf2_hmac(function, password, salt, 10000, 32)
        hash_alg = (auth.UserImportHash.pbkdf_sha1 if function == "sha1" else auth.UserImportHash.pbkdf2_sha256)(rounds=10000)
        user = auth.ImportUserRecord(uid, email=uid + "@example.com", password_hash=key, password_salt=salt)
        result = auth.import_users([user], hash_alg=hash_alg)
        print(json.dumps({"success": result.success_count, "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test(arguments: ["sha1", "sha256"])
    func pbkdf2HashesSignInAndAreReHashed(_ function: String) async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let uid = "pbkdf2-\(function)"
            let imported = try await server.firebaseAdmin(Self.pbkdf2Import, [function, "correct horse battery", uid])
            #expect(imported["success"] as? Int == 1, "\(imported)")
            #expect(
                try await server.service.administration.accountDetails(id: uid)?.account.passwordHash?.hasPrefix("$pbkdf2-\(function)$i=10000$")
                    == true)
            try await Self.expectSignsInAndIsReHashed(server, uid: uid)
        }
    }

    /// Hashes `sys.argv[2]` with pyca's bcrypt at cost 10 and imports it with firebase-admin's
    /// `UserImportHash.bcrypt()` as uid `bcrypt-1`.
    static let bcryptImport = """
        import bcrypt
        key = bcrypt.hashpw(sys.argv[2].encode(), bcrypt.gensalt(rounds=10))
        user = auth.ImportUserRecord("bcrypt-1", email="bcrypt@example.com", password_hash=key)
        result = auth.import_users([user], hash_alg=auth.UserImportHash.bcrypt())
        print(json.dumps({"success": result.success_count, "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test func bcryptHashesSignInThroughLibxcryptAndAreReHashed() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let imported = try await server.firebaseAdmin(Self.bcryptImport, ["correct horse battery"])
            #expect(imported["success"] as? Int == 1, "\(imported)")
            #expect(try await server.service.administration.accountDetails(id: "bcrypt-1")?.account.passwordHash?.hasPrefix("$2b$10$") == true)
            let wrong = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"bcrypt@example.com","password":"wrong one","returnSecureToken":true}"#)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(wrong.body)")
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"bcrypt@example.com","password":"correct horse battery","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(try await server.service.administration.accountDetails(id: "bcrypt-1")?.account.passwordHash?.hasPrefix("$scrypt$") == true)
            // A crypt string of a cost beyond what a sign-in may pay is refused at the import.
            let costly = try await server.post(
                Self.path,
                #"{"hashAlgorithm":"BCRYPT","users":[{"localId":"bcrypt-2","email":"b2@example.com","passwordHash":"\#(Data("$2b$16$".utf8 + Data(repeating: 0x41, count: 53)).base64EncodedString())"}]}"#,
                headers: Self.owner)
            #expect(
                (costly.json["error"] as? [[String: Any]])?.first?["message"] as? String
                    == "the imported password hash has a bcrypt cost outside 4 to 15", "\(costly.body)")
        }
    }

    /// Hashes `sys.argv[3]` with hashlib's `sys.argv[2]` (md5, sha1, sha256 or sha512): the digest
    /// of the salt then the password, then of each digest, `sys.argv[5]` applications in all, and
    /// imports it with firebase-admin's matching `UserImportHash` as uid `sys.argv[4]`.
    static let digestImport = """
        import hashlib, os
        function, password, uid, rounds = sys.argv[2], sys.argv[3].encode(), sys.argv[4], int(sys.argv[5])
        salt = os.urandom(8)
        key = hashlib.new(function, salt + password).digest()
        for _ in range(rounds - 1):
            key = hashlib.new(function, key).digest()
        hash_alg = getattr(auth.UserImportHash, function)(rounds=rounds)
        user = auth.ImportUserRecord(uid, email=uid + "@example.com", password_hash=key, password_salt=salt)
        result = auth.import_users([user], hash_alg=hash_alg)
        print(json.dumps({"success": result.success_count, "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test(arguments: [("md5", 1), ("sha1", 1), ("sha256", 1), ("sha512", 1), ("sha256", 1000), ("md5", 64)])
    func digestHashesSignInAndAreReHashed(_ function: String, rounds: Int) async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let uid = "digest-\(function)-\(rounds)"
            let imported = try await server.firebaseAdmin(Self.digestImport, [function, "correct horse battery", uid, "\(rounds)"])
            #expect(imported["success"] as? Int == 1, "\(imported)")
            #expect(
                try await server.service.administration.accountDetails(id: uid)?.account.passwordHash?.hasPrefix(
                    "$digest-\(function)$r=\(rounds),o=sp$") == true)
            try await Self.expectSignsInAndIsReHashed(server, uid: uid)
        }
    }

    @Test("plain digests hashed password first or without a salt sign in; a hash of the wrong length, bad rounds or order are refused")
    func digestImportOrderSaltAndRefusals() async throws {
        // Python's hashlib makes the hashes: SHA-256 of the password then the salt, SHA-1 of the
        // password alone.
        let python = try ExternalTool.debianPython3.path()
        let made = try await ProcessRunner.run(
            python,
            [
                "-c",
                "import base64, hashlib; p = b'correct horse battery'; "
                    + "print(base64.b64encode(hashlib.sha256(p + b'pepper').digest()).decode()); print(base64.b64encode(hashlib.sha1(p).digest()).decode())",
            ])
        let lines = String(decoding: made.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(made.status == 0 && lines.count == 2, "\(made)")
        let salt = Data("pepper".utf8).base64EncodedString()
        try await InProcessServer.with { server in
            let passwordFirst = try await server.post(
                Self.path,
                #"{"hashAlgorithm":"SHA256","rounds":1,"passwordHashOrder":"PASSWORD_AND_SALT","users":[{"localId":"d-1","email":"d1@example.com","passwordHash":"\#(lines[0])","salt":"\#(salt)"},{"localId":"d-2","email":"d2@example.com","passwordHash":"\#(lines[1])","salt":"\#(salt)"}]}"#,
                headers: Self.owner)
            #expect(
                (passwordFirst.json["error"] as? [[String: Any]])?.first?["message"] as? String
                    == "the imported password hash has 20 bytes, where sha256 makes 32",
                "\(passwordFirst.body)")
            let unsalted = try await server.post(
                Self.path, #"{"hashAlgorithm":"SHA1","rounds":1,"users":[{"localId":"d-3","email":"d3@example.com","passwordHash":"\#(lines[1])"}]}"#,
                headers: Self.owner)
            #expect(unsalted.status == 200 && unsalted.json["error"] == nil, "\(unsalted.body)")
            for email in ["d1@example.com", "d3@example.com"] {
                let signedIn = try await server.post(
                    ClientEndpointTests.signIn, #"{"email":"\#(email)","password":"correct horse battery","returnSecureToken":true}"#)
                #expect(signedIn.status == 200, "\(email): \(signedIn.body)")
            }
            for (body, says) in [
                (#"{"hashAlgorithm":"SHA256","rounds":0,"users":[{"localId":"x"}]}"#, "SHA256 needs rounds from 1 to 8192"),
                (#"{"hashAlgorithm":"MD5","rounds":8193,"users":[{"localId":"x"}]}"#, "MD5 needs rounds from 0 to 8192"),
                (#"{"hashAlgorithm":"SHA512","rounds":1,"passwordHashOrder":"BOTH","users":[{"localId":"x"}]}"#, "passwordHashOrder BOTH is not"),
            ] {
                let refused = try await server.post(Self.path, body, headers: Self.owner)
                #expect(refused.status == 400 && refused.errorMessage?.contains(says) == true, "\(body): \(refused.body)")
            }
        }
    }

    /// Hashes `sys.argv[3]` with Python's hmac (`sys.argv[2]`: md5, sha1, sha256 or sha512) under
    /// the key `otpkit hmac key`, of the salt then the password, and imports it with
    /// firebase-admin's `UserImportHash.hmac_*` as uid `sys.argv[4]`.
    static let hmacImport = """
        import hashlib, hmac, os
        function, password, uid = sys.argv[2], sys.argv[3].encode(), sys.argv[4]
        salt, key = os.urandom(8), b"otpkit hmac key"
        code = hmac.new(key, salt + password, function).digest()
        hash_alg = getattr(auth.UserImportHash, "hmac_" + function)(key=key)
        user = auth.ImportUserRecord(uid, email=uid + "@example.com", password_hash=code, password_salt=salt)
        result = auth.import_users([user], hash_alg=hash_alg)
        print(json.dumps({"success": result.success_count, "errors": [[e.index, e.reason] for e in result.errors]}))
        """

    @Test(arguments: PasswordHasher.DigestHash.allCases)
    func hmacHashesOfAConfiguredKeySignInAndAreReHashed(_ function: PasswordHasher.DigestHash) async throws {
        var configuration = InProcessServer.configuration
        configuration.passwords.hmacImportKeys = [try HMACImportKey(function: function, key: Array("otpkit hmac key".utf8))]
        try await InProcessServer.with(configuration: configuration, signingAlgorithm: .rs256, live: true) { server in
            let uid = "hmac-\(function.rawValue)"
            let imported = try await server.firebaseAdmin(Self.hmacImport, [function.rawValue, "correct horse battery", uid])
            #expect(imported["success"] as? Int == 1, "\(imported)")
            #expect(
                try await server.service.administration.accountDetails(id: uid)?.account.passwordHash?.hasPrefix("$hmac-\(function.rawValue)$k=")
                    == true)
            try await Self.expectSignsInAndIsReHashed(server, uid: uid)
        }
    }

    @Test("second factors come along: a phone factor as Firebase exports it and a TOTP factor with its secret, each then completing a sign-in")
    func secondFactorsAreImported() async throws {
        try await InProcessServer.with { server in
            let key = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
            let users = #"""
                [{"localId":"mfa-1","email":"mfa@example.com","emailVerified":true,"mfaInfo":[
                  {"mfaEnrollmentId":"old-id","displayName":"Work phone","phoneInfo":"+1 201-555-0123","enrolledAt":"2024-05-01T10:00:00Z"},
                  {"displayName":"Authenticator","totpInfo":{"sharedSecretKey":"\#(key)"}}]},
                 {"localId":"mfa-2","email":"mfa2@example.com","mfaInfo":[{"totpInfo":{}}]},
                 {"localId":"mfa-3","email":"mfa3@example.com","mfaInfo":[{"phoneInfo":"not a number"}]}]
                """#
            let imported = try await server.post(Self.path, #"{"users":\#(users)}"#, headers: Self.owner)
            let errors = try #require(imported.json["error"] as? [[String: Any]], "\(imported.body)")
            #expect(errors.compactMap { $0["index"] as? Int } == [1, 2], "\(imported.body)")
            #expect((errors.first?["message"] as? String)?.contains("sharedSecretKey") == true, "\(imported.body)")
            #expect(errors.last?["message"] as? String == "a second factor's phone number is invalid", "\(imported.body)")
            #expect(try await server.service.administration.accountDetails(id: "mfa-3") == nil, "a refused user is not made at all")

            let user = try await server.adminUser("mfa-1")
            let factors = try #require(user["mfaInfo"] as? [[String: Any]], "\(user)")
            #expect(Set(factors.compactMap { $0["displayName"] as? String }) == ["Work phone", "Authenticator"])
            #expect(
                factors.contains { $0["phoneInfo"] as? String == "+12015550123" && $0["enrolledAt"] as? String == "2024-05-01T10:00:00.000Z" },
                "\(factors)")
            #expect(!factors.contains { $0["mfaEnrollmentId"] as? String == "old-id" }, "a new enrollment id")

            try await server.service.administration.updateAccount(id: "mfa-1", password: "long enough")
            let (pending, hints) = try await server.pendingSignIn("mfa@example.com")
            let totpID = try #require(hints.first { $0["totpInfo"] != nil }?["mfaEnrollmentId"] as? String, "\(hints)")
            let signedIn = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(pending, totpID, try server.code(key)))
            #expect(signedIn.json["idToken"] is String, "the imported secret's code signs in: \(signedIn.body)")
        }
    }
}
