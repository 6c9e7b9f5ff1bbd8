internal import Hummingbird

/// The language a page is written in: the best of the translations the pages have for the
/// request's `Accept-Language` (RFC 9110 section 12.5.4), English when it names none of them.
///
/// A task-local set once per request by ``PageLanguageMiddleware``, which every message string
/// the request renders reads, so that no handler passes the language along.
enum PageLanguage {
    @TaskLocal static var current = PageRenderer.defaultLanguage

    /// The language of `available` that `acceptLanguage` prefers most: the highest `q`, the
    /// earlier range on a tie; a range matches a language equal to it or to its first subtag
    /// (`pl-PL` is `pl`), and `*` any. A range with `q=0` excludes its language. `nil` when
    /// nothing matches.
    static func preferred(_ acceptLanguage: String, among available: [String]) -> String? {
        var candidates: [(language: String, quality: Double)] = []
        var excluded: Set<String> = []
        for element in acceptLanguage.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let range = parts.first?.trimmingBlanks.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingBlanks.lowercased() == "q" else { continue }
                // RFC 9110: a qvalue is 0 to 1; anything else makes the range worth nothing.
                quality = Double(pair[1].trimmingBlanks).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
            }
            let primary = range.prefix { $0 != "-" }
            let matches = range == "*" ? available : available.filter { $0 == range || $0 == primary }
            if quality > 0 {
                candidates += matches.map { ($0, quality) }
            } else if range != "*" {
                excluded.formUnion(matches)
            }
        }
        // max(by:) keeps the first of equals: the range the header names earlier.
        return candidates.filter { !excluded.contains($0.language) }.max { $0.quality < $1.quality }?.language
    }
}

/// Sets ``PageLanguage/current`` for the pages' routes from the request's `Accept-Language`.
struct PageLanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    let languages: [String]

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.acceptLanguage], let language = PageLanguage.preferred(header, among: languages) else {
            return try await next(request, context)
        }
        return try await PageLanguage.$current.withValue(language) { try await next(request, context) }
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[first...last]
    }
}
