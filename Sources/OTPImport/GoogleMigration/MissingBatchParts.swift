/// The codes of one Google Authenticator export batch that an import did not read.
///
/// ``missingIndices`` count from 0, as the payload's `batch_index` does; ``description`` counts
/// from 1, as a person numbers the QR codes Google Authenticator shows ("code 2 of 3").
public struct MissingBatchParts: Hashable, Sendable, CustomStringConvertible {
    /// The batch's id, shared by its codes (``MigrationCode/batchID``).
    public let batchID: Int32
    /// The number of codes in the batch.
    public let batchSize: Int
    /// The indices of the missing codes, counted from 0, ascending.
    public let missingIndices: [Int]

    /// Creates a report of missing codes.
    public init(batchID: Int32, batchSize: Int, missingIndices: [Int]) {
        self.batchID = batchID
        self.batchSize = batchSize
        self.missingIndices = missingIndices
    }

    /// One line, counting from 1: `code 2 of 3 is missing (batch 1234): scan it too, or accept the
    /// accounts of the others`.
    public var description: String {
        let numbers = missingIndices.map { String($0 + 1) }
        let list: String
        switch numbers.count {
        case 1: list = numbers[0]
        case 2: list = "\(numbers[0]) and \(numbers[1])"
        default: list = numbers.dropLast().joined(separator: ", ") + " and " + (numbers.last ?? "")
        }
        let verb = numbers.count == 1 ? "code \(list) of \(batchSize) is" : "codes \(list) of \(batchSize) are"
        let pronoun = numbers.count == 1 ? "it" : "them"
        return "\(verb) missing (batch \(batchID)): scan \(pronoun) too, or accept the accounts of the others"
    }
}
