/// A change to one optional attribute of an account: a new value, or none at all. An attribute
/// that stays as it is has no change (`nil` where an ``AccountChanges`` field is optional).
public enum AttributeChange<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The attribute becomes `value`.
    case set(Value)
    /// The attribute is removed.
    case remove
}
