import Foundation
import OTPTestUtilities
import Testing

@Suite("totp uri")
struct URICommandTests {
    struct Known: Sendable, CustomTestStringConvertible {
        let uri: String
        let json: String
        var testDescription: String { uri }
    }

    static let known: [Known] = [
        // Google's Key Uri Format example.
        Known(
            uri: "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
            json:
                #"{"type":"totp","issuer":"Example","account":"alice@google.com","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA1","digits":6,"period":30,"counter":null}"#
        ),
        // Escaped space in label and issuer, every parameter spelled out.
        Known(
            uri:
                "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30",
            json:
                #"{"type":"totp","issuer":"ACME Co","account":"john.doe@email.com","secret":"HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ","algorithm":"SHA1","digits":6,"period":30,"counter":null}"#
        ),
        // HOTP with a counter, lowercase algorithm, 8 digits.
        Known(
            uri: "otpauth://hotp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&counter=42&algorithm=sha256&digits=8",
            json:
                #"{"type":"hotp","issuer":"Example","account":"alice@google.com","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA256","digits":8,"period":30,"counter":42}"#
        ),
        // No issuer anywhere; a lowercase, spaced secret; a 60-second period.
        Known(
            uri: "otpauth://totp/alice@example.com?secret=jbsw%20y3dp%20ehpk%203pxp&period=60",
            json:
                #"{"type":"totp","issuer":null,"account":"alice@example.com","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA1","digits":6,"period":60,"counter":null}"#
        ),
        // Firebase's generateQRCodeURL form, %3A between issuer and account, SHA-512.
        Known(
            uri: "otpauth://totp/myawesomeapp%3Auser@myawesomeapp?secret=GEZDGNBVGY3TQOJQ&issuer=myawesomeapp&algorithm=SHA512&digits=6",
            json:
                #"{"type":"totp","issuer":"myawesomeapp","account":"user@myawesomeapp","secret":"GEZDGNBVGY3TQOJQ","algorithm":"SHA512","digits":6,"period":30,"counter":null}"#
        ),
        // Characters that JSON must escape.
        Known(
            uri: "otpauth://totp/Quote%22Back%5C:tab%09name?secret=JBSWY3DPEHPK3PXP",
            json:
                #"{"type":"totp","issuer":"Quote\"Back\\","account":"tab\tname","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA1","digits":6,"period":30,"counter":null}"#
        ),
    ]

    @Test("inspect --json on known URIs", arguments: known)
    func inspectJSON(_ known: Known) async throws {
        let run = try await TOTPProcess.run(["uri", "inspect", "--json", known.uri])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == known.json + "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        #expect(parsed is [String: Any])
    }

    @Test("inspect prints aligned fields, extra parameters included, and reads standard input")
    func inspectText() async throws {
        let uri =
            "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&image=https%3A%2F%2Fexample.com%2Fi.png"
        let run = try await TOTPProcess.run(["uri", "inspect", "-"], input: uri + "\n")
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdout == """
                type:      totp
                issuer:    ACME Co
                account:   john.doe@email.com
                secret:    HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ
                algorithm: SHA1
                digits:    6
                period:    30
                image:     https://example.com/i.png

                """)
    }

    @Test("--strict refuses what lenient parsing accepts")
    func strict() async throws {
        let mismatch = "otpauth://totp/Label:alice?secret=JBSWY3DPEHPK3PXP&issuer=Other"
        #expect(try await TOTPProcess.run(["uri", "inspect", mismatch]).status == 0)
        let run = try await TOTPProcess.run(["uri", "inspect", "--strict", mismatch])
        #expect(run.status == 64)
        #expect(run.stderr == "totp uri inspect: invalid URI: the label's issuer 'Label' differs from the issuer parameter 'Other'\n")
        #expect(run.stdout == "")
    }

    @Test("make builds URIs that inspect reads back")
    func make() async throws {
        let run = try await TOTPProcess.run([
            "uri", "make", "--secret", "jbsw y3dp ehpk 3pxp", "--issuer", "Example", "--account", "alice@google.com",
        ])
        #expect(run.stdout == "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6&period=30\n")
        let hotp = try await TOTPProcess.run(
            ["uri", "make", "--secret", "-", "--account", "bob", "--hotp", "--counter", "7", "--algorithm", "sha512", "--digits", "8"],
            input: "JBSWY3DPEHPK3PXP\n")
        #expect(hotp.status == 0, "\(hotp)")
        let back = try await TOTPProcess.run(["uri", "inspect", "--json", String(hotp.stdout.dropLast())])
        #expect(
            back.stdout
                == #"{"type":"hotp","issuer":null,"account":"bob","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA512","digits":8,"period":30,"counter":7}"#
                + "\n")
        let spaced = try await TOTPProcess.run(["uri", "make", "--secret", "JBSWY3DPEHPK3PXP", "--issuer", "ACME Co", "--account", "a:b@c"])
        let inspected = try await TOTPProcess.run(["uri", "inspect", "--strict", "--json", String(spaced.stdout.dropLast())])
        #expect(
            inspected.stdout
                == #"{"type":"totp","issuer":"ACME Co","account":"a:b@c","secret":"JBSWY3DPEHPK3PXP","algorithm":"SHA1","digits":6,"period":30,"counter":null}"#
                + "\n",
            "\(spaced.stdout) → \(inspected)")
    }

    @Test("make --firebase prints Firebase's generateQRCodeURL form")
    func firebase() async throws {
        let run = try await TOTPProcess.run([
            "uri", "make", "--firebase", "--secret", "GEZDGNBVGY3TQOJQ", "--issuer", "myawesomeapp", "--account", "user@myawesomeapp",
        ])
        #expect(run.stdout == "otpauth://totp/myawesomeapp:user@myawesomeapp?secret=GEZDGNBVGY3TQOJQ&issuer=myawesomeapp&algorithm=SHA1&digits=6\n")
        let sha256 = try await TOTPProcess.run([
            "uri", "make", "--firebase", "--secret", "GEZDGNBVGY3TQOJQ", "--issuer", "App", "--account", "u", "--algorithm", "sha256", "--digits",
            "8",
        ])
        #expect(sha256.stdout == "otpauth://totp/App:u?secret=GEZDGNBVGY3TQOJQ&issuer=App&algorithm=SHA256&digits=8\n")
    }

    @Test("code --uri takes algorithm, digits, period and counter from the URI; options override them")
    func codeFromURI() async throws {
        let totp = "otpauth://totp/RFC:6238?secret=\(Seeds.sha1)&digits=8"
        #expect(try await TOTPProcess.run(["code", "--uri", totp, "--time", "59"]).stdout == "94287082\n")
        #expect(try await TOTPProcess.run(["code", "--uri", totp, "--time", "59", "--digits", "6"]).stdout == "287082\n")
        let sha256 = "otpauth://totp/RFC:6238?secret=\(Seeds.sha256)&digits=8&algorithm=SHA256"
        #expect(try await TOTPProcess.run(["code", "--uri", sha256, "--time", "59"]).stdout == "46119246\n")
        let hotp = "otpauth://hotp/RFC:4226?secret=\(Seeds.sha1)&counter=3"
        #expect(try await TOTPProcess.run(["code", "--uri", hotp]).stdout == "969429\n")
        #expect(try await TOTPProcess.run(["verify", "969429", "--uri", hotp]).stdout == "valid: offset 0 (counter 3)\n")
        // A URI through the other sources.
        #expect(try await TOTPProcess.run(["code", "-", "--time", "59"], input: totp).stdout == "94287082\n")
        #expect(try await TOTPProcess.run(["code", "--time", "59"], environment: ["TOTP_SECRET": totp]).stdout == "94287082\n")
        #expect(try await TOTPProcess.run(["code", totp, "--time", "59"]).stdout == "94287082\n")
    }
}
