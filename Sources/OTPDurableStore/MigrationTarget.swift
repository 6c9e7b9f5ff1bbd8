/// A database that ``Migration``s bring up to date: what a durable store implements so that
/// ``MigrationTarget/migrate(to:)`` runs the shared rules on it.
package protocol MigrationTarget {
    /// The store's own error type.
    associatedtype Failure: Error

    /// The migrations recorded as applied, with the checksums recorded with them. Creates the
    /// record table when it does not exist yet.
    func appliedMigrations() async throws(Failure) -> [(version: Int, checksum: String)]

    /// Runs `migration`'s statements and records it with its checksum.
    func apply(_ migration: Migration) async throws(Failure)

    /// The error for a database whose schema has `version`, newer than the `supported` one.
    func schemaTooNew(version: Int, supported: Int) -> Failure

    /// The error for a recorded migration whose checksum differs from the shipped one.
    func migrationChanged(version: Int) -> Failure
}

extension MigrationTarget {
    /// Checks what was applied against `migrations`, then applies the missing ones in order.
    ///
    /// The caller runs it inside one write transaction, so that two processes opening a new
    /// database cannot both migrate it and a failed migration leaves nothing half-done. The rules:
    /// a recorded version this code does not ship is a newer schema (refused); a recorded checksum
    /// that differs means a shipped migration was edited (refused: migrations are append-only).
    package func migrate(to migrations: [Migration]) async throws(Failure) {
        precondition(migrations.map(\.version) == Array(1..<migrations.count + 1), "migrations are numbered 1, 2, 3, … in order")
        let supported = migrations.last?.version ?? 0
        let applied = try await appliedMigrations()
        for (version, checksum) in applied {
            guard let migration = migrations.first(where: { $0.version == version }) else {
                throw schemaTooNew(version: version, supported: supported)
            }
            guard checksum == migration.checksum else { throw migrationChanged(version: version) }
        }
        let appliedVersions = Set(applied.map(\.version))
        for migration in migrations where !appliedVersions.contains(migration.version) {
            try await apply(migration)
        }
    }
}
