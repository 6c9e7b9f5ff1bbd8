/// A dictionary keyed by ids, split into shards by the id's first byte, for tables that only grow.
///
/// A `Dictionary` grows by rehashing every entry into a table twice the size, in one go: for the
/// sessions of a busy in-memory store that is hundreds of thousands of entries moved while the
/// store's lock is held, a stall for every request. Shards grow one at a time, each a 64th of the
/// table: over 600,000 sign-ins on one core the slowest took 175–230 ms with one table (the
/// rehash at half a million sessions) and 3–6 ms with shards, at the same throughput. Ids from
/// ``RandomIDs`` have a uniformly random first character; other keys work too, just less evenly.
struct ShardedDictionary<Value> {
    private static var shardCount: Int { 64 }
    private var shards = [[String: Value]](repeating: [:], count: Self.shardCount)

    private static func shard(_ key: String) -> Int {
        Int(key.utf8.first ?? 0) & (shardCount - 1)
    }

    subscript(key: String) -> Value? {
        shards[Self.shard(key)][key]
    }

    /// Sets the value for `key` and returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        shards[Self.shard(key)].updateValue(value, forKey: key)
    }

    /// Removes `key` and returns its value, if it had one.
    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        shards[Self.shard(key)].removeValue(forKey: key)
    }
}
