public import Logging
import OTPAuthenticationPostgres
public import PostgresNIO

/// The PostgreSQL server of the tests, from the variables `bash Tests/test.sh` exports after
/// starting a throwaway cluster (.ci/postgres). Missing variables or an unreachable server fail
/// the test, never skip it.
public enum TestServer {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static let environment: [String: String] = PostgresAuthStore.processEnvironment

    /// `PGHOST` (the socket directory), `PGPORT` and `PGUSER`, or a failure saying how to get them.
    public static func settings() throws -> (socketDirectory: String, port: Int, user: String) {
        guard let host = environment["PGHOST"], host.hasPrefix("/"), let port = environment["PGPORT"].flatMap(Int.init),
            let user = environment["PGUSER"]
        else {
            throw Unavailable(
                description:
                    "the PostgreSQL tests need PGHOST (a socket directory), PGPORT and PGUSER of a running server: run bash Tests/test.sh, which starts one"
            )
        }
        return (host, port, user)
    }

    /// A plain connection to `database` as the cluster's superuser, for what the tests check and
    /// set up beside the store.
    public static func connect(database: String) async throws -> PostgresConnection {
        let (directory, port, user) = try settings()
        let configuration = PostgresConnection.Configuration(
            unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: user, password: nil, database: database)
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw Unavailable(description: "cannot connect to the test server at \(directory) port \(port) (\(error)): run bash Tests/test.sh")
        }
    }

    public static let logger = Logger(label: "OTPAuthenticationPostgresTests")
}
