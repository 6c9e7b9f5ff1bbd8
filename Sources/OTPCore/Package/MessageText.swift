/// Text quoted in an error message: cut to `maximumScalars` with an ellipsis, control characters
/// written as `\u{…}`, so a message stays one short line whatever a file or URI carried.
package func quotedInMessage(_ text: String, maximumScalars: Int) -> String {
    var result = ""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == maximumScalars {
            result += "…"
            break
        }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}
