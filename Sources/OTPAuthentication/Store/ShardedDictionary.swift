/// A dictionary keyed by ids, split into shards by the id's first byte, for tables that only grow.
///
/// A `Dictionary` grows by rehashing every entry into a table twice the size, in one go: for the
/// sessions of a busy in-memory store that is hundreds of thousands of entries moved while the
/// store's lock is held, a stall for every request. Shards grow one at a time, each a 62nd of the
/// table. The shard is the first byte modulo 62, which maps the 62 characters of ``RandomIDs``
/// (`0–9` are 48–57, `A–Z` 65–90, `a–z` 97–122) onto 62 different shards; other keys work too,
/// just less evenly.
struct ShardedDictionary<Value> {
    private static var shardCount: Int { 62 }
    private var shards = [[String: Value]](repeating: [:], count: Self.shardCount)

    private static func shard(_ key: String) -> Int {
        Int(key.utf8.first ?? 0) % shardCount
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

    /// Removes every value that `shouldRemove` picks, and returns them.
    mutating func removeAll(where shouldRemove: (Value) -> Bool) -> [Value] {
        var removed: [Value] = []
        for index in shards.indices {
            for (key, value) in shards[index] where shouldRemove(value) {
                shards[index].removeValue(forKey: key)
                removed.append(value)
            }
        }
        return removed
    }
}
