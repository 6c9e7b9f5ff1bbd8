import OTPLoopbackHTTP
import OTPOutbound
import Testing

@Suite("One outbound HTTP exchange through libcurl")
struct HTTPExchangeTests {
    private static func exchange(_ url: String, timeout: Duration = .seconds(10), bodyLimit: Int = 1024) -> HTTPExchange {
        HTTPExchange(.post, url, headers: [("Content-Type", "text/plain")], body: Array("hello".utf8), timeout: timeout, bodyLimit: bodyLimit)
    }

    /// async-http-client trapped on these (Tests/Fuzz/Regressions/FuzzGatewayAnswers/status-below-100*
    /// and found-status-021*): an answer libcurl cannot read is a failure, and the process goes on.
    @Test(
        "an answer with a status below 100 is a failure, not a crash",
        arguments: [
            "HTTP/1.1 021 Odd\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nhi",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 021 Odd\r\nContent-Length: 2\r\n\r\nhi", "HTTP/1.1 000 Zero\r\n\r\n",
        ])
    func statusBelow100(_ answer: String) async throws {
        let server = try await RawAnswerServer.start(answering: Array(answer.utf8))
        let result = await Self.exchange(server.baseURL).perform()
        try await server.stop()
        guard case .failure(.brokenOff(let detail)) = result else {
            Issue.record("expected brokenOff, got \(result)")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test("the final answer after a 100 Continue is the answer, its own head only")
    func interimAnswer() async throws {
        let answer = "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\nHTTP/1.1 201 Created\r\nX-Final: a\r\nx-final: b\r\nContent-Length: 2\r\n\r\nok"
        let server = try await RawAnswerServer.start(answering: Array(answer.utf8))
        let answered = try await Self.exchange(server.baseURL).perform().get()
        try await server.stop()
        #expect(answered.status == 201 && answered.body == Array("ok".utf8) && answered.ending == .complete)
        #expect(answered.values(of: "X-FINAL") == ["a", "b"])
        #expect(answered.values(of: "X-Interim").isEmpty)
    }

    @Test("a body longer than the limit ends the exchange with the limit's worth kept")
    func overLimit() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .ok, body: String(repeating: "x", count: 5000)))
        let answered = try await Self.exchange(server.baseURL, bodyLimit: 1000).perform().get()
        try await server.stop()
        #expect(answered.status == 200 && answered.ending == .overLimit && answered.body == Array(repeating: UInt8(ascii: "x"), count: 1000))
    }

    @Test("a redirect is the answer, not followed; the request goes out as given")
    func redirectNotFollowed() async throws {
        let server = try await LoopbackHTTPServer.start(
            replying: .init(status: .found, headers: [("Location", "http://127.0.0.1:1/elsewhere")]))
        var exchange = Self.exchange(server.baseURL + "/hook?x=1")
        exchange.headers.append(("X-Empty", ""))
        let answered = try await exchange.perform().get()
        try await server.stop()
        #expect(answered.status == 302 && answered.values(of: "Location") == ["http://127.0.0.1:1/elsewhere"])
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1 && request.method == .POST && request.uri == "/hook?x=1" && request.bodyText == "hello")
        #expect(request.header("Content-Type") == "text/plain" && request.header("X-Empty") == "" && request.header("Expect") == nil)
    }

    @Test("a body that stalls after the head is an answer whose body broke off at the timeout")
    func stalledBody() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .ok, body: "part", stallsBody: true))
        let answered = try await Self.exchange(server.baseURL, timeout: .milliseconds(300)).perform().get()
        try await server.stop()
        #expect(answered.status == 200 && answered.body == Array("part".utf8) && answered.ending == .brokenOff(.timedOut))
    }

    @Test("a refused connection names the system's error; other schemes are refused before any connection")
    func noConnection() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let refused = await Self.exchange("http://127.0.0.1:\(port)").perform()
        #expect(Self.failure(of: refused) == .noConnection("Connection refused (errno 111)"), "\(refused)")
        let file = await HTTPExchange(.get, "file:///etc/passwd", timeout: .seconds(1), bodyLimit: 10).perform()
        guard case .failure(.brokenOff) = file else {
            Issue.record("expected brokenOff, got \(file)")
            return
        }
    }

    @Test("a cancelled task ends its exchange without waiting for the timeout")
    func cancelled() async throws {
        // The server says when the request arrived, and never answers within the test.
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let server = try await LoopbackHTTPServer.start { _ in
            arrived.yield()
            return .init(status: .ok, delay: .seconds(120))
        }
        let task = Task { await Self.exchange(server.baseURL, timeout: .seconds(120)).perform() }
        for await _ in arrivals { break }
        task.cancel()
        let result = await task.value
        try await server.stop()
        #expect(Self.failure(of: result) == .cancelled, "\(result)")
    }

    private static func failure(of result: Result<HTTPAnswer, HTTPExchangeFailure>) -> HTTPExchangeFailure? {
        if case .failure(let failure) = result { failure } else { nil }
    }
}
