import Foundation
import FuzzSupport
import HTTPTypes
import NIOCore

/// One fuzz input as a request: `[admin ][GET ]PATH\nBODY`, placeholders replaced.
struct FuzzRequest {
    let method: HTTPRequest.Method
    let path: String
    let isAdmin: Bool
    let body: [UInt8]

    init(_ input: [UInt8], fixtures: Fixtures) {
        let input = fixtures.substitute(input)
        let newline = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
        var line = input[..<newline]
        body = newline < input.endIndex ? Array(input[(newline + 1)...]) : []
        isAdmin = line.starts(with: "admin ".utf8)
        if isAdmin { line = line.dropFirst(6) }
        method = line.starts(with: "GET ".utf8) ? .get : .post
        if method == .get { line = line.dropFirst(4) }
        path = Self.percentEncoded(line)
    }

    /// What NIO's HTTP parser lets through to a route: the line's bytes outside a URI's printable
    /// ASCII arrive percent-encoded here, as a client would have had to send them.
    static func percentEncoded(_ bytes: ArraySlice<UInt8>) -> String {
        var path = bytes.first == UInt8(ascii: "/") ? "" : "/"
        for byte in bytes {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") {
                path.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                path += String(format: "%%%02X", byte)
            }
        }
        return path
    }

    /// Sends the request and checks the answer: never a server error, every error Google's JSON.
    func send(_ routes: FuzzRoutes) async throws {
        var headers: HTTPFields = [.contentType: "application/json"]
        if isAdmin { headers[.authorization] = "Bearer owner" }
        let response = try await routes.send(method, path, headers: headers, body: ByteBuffer(bytes: method == .post ? body : []))
        let status = Int(response.status.code)
        let text = String(buffer: response.body)
        check(status < 500, "\(method) \(path) answered \(status): \(text)")
        guard status >= 400 else { return }
        let json = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        // The emulator's action page answers as Firebase's emulator does: `{"authEmulator": …}`.
        if method == .get, path.split(separator: "?", maxSplits: 1)[0].split(separator: "/") == ["emulator", "action"] {
            check(json?["authEmulator"] != nil, "\(method) \(path) answered \(status) without the emulator's JSON: \(text)")
            return
        }
        let error = json?["error"] as? [String: Any]
        check(error?["code"] as? Int == status, "\(method) \(path) answered \(status) without Google's error JSON: \(text)")
        check((error?["message"] as? String)?.isEmpty == false, "\(method) \(path) answered \(status) without a message: \(text)")
    }
}
