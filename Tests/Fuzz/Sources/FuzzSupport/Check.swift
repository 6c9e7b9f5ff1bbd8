/// Traps with `message` when `condition` fails, which libFuzzer reports as a crash with the input
/// that caused it: `precondition` drops its message in optimized builds, and the report needs it.
package func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
