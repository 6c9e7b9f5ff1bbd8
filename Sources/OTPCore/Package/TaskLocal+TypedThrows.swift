extension TaskLocal {
    /// `withValue(_:operation:)` for an operation that throws one error type: the standard one
    /// rethrows untyped, so the answer crosses it as a `Result`.
    package func withValue<Value2, Failure: Error>(
        _ value: Value, typed operation: () async throws(Failure) -> Value2
    ) async throws(Failure) -> Value2 {
        let result = await withValue(value) { () async -> Result<Value2, Failure> in
            do throws(Failure) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
