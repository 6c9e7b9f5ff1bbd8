/// Where `--db` points (`totp-enrollment` and `otpkit-server` take the same argument): an SQLite file, or a PostgreSQL database named by a libpq URL.
package enum DatabaseLocation: Equatable, Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// The PostgreSQL store for a `postgres:` or `postgresql:` scheme in any letter case, the
    /// SQLite store for anything else. A misspelt URL (`postgres:/host`) goes to the PostgreSQL
    /// store too, which says what is wrong with it, rather than becoming a new SQLite file.
    package init(_ argument: String) {
        let scheme = argument.prefix { $0 != ":" && $0 != "/" }
        let isURL = argument.dropFirst(scheme.count).hasPrefix(":") && ["postgres", "postgresql"].contains(scheme.lowercased())
        self = isURL ? .postgres(url: argument) : .sqlite(path: argument)
    }

    /// The `--db` argument as the commands' hints repeat it: a URL may hold a password, so only
    /// its scheme is shown.
    package var shownArgument: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url.prefix { $0 != ":" } + "://…"
        }
    }
}
